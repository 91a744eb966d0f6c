-- The reliability curve of every run with confidences: ten bins of stated confidence
-- ([0, 0.1), ..., [0.9, 1]), each with its values, their mean confidence and the share of
-- them that are right. A calibrated answer has accuracy close to mean_confidence in every
-- bin; gap is accuracy - mean_confidence (negative: over-confident). Empty bins have no row.
WITH binned AS (
    SELECT run_id, LEAST(CAST(FLOOR(confidence * 10) AS INTEGER), 9) AS bin,
           confidence, correct, incorrect
    FROM confidence_units
)
SELECT run_id, bin,
       bin / 10 AS lower,
       (bin + 1) / 10 AS upper,
       SUM(correct + incorrect) AS claims,
       SUM(confidence * (correct + incorrect)) / SUM(correct + incorrect) AS mean_confidence,
       SUM(correct) / SUM(correct + incorrect) AS accuracy,
       SUM(correct) / SUM(correct + incorrect)
           - SUM(confidence * (correct + incorrect)) / SUM(correct + incorrect) AS gap
FROM binned
GROUP BY run_id, bin
ORDER BY run_id, bin
