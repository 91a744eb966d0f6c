-- How well the stated confidences (extract --confidence) tell right values from wrong ones,
-- per run asked for them: claims (values emitted), stated (of them, with a usable
-- confidence), correct and incorrect among the stated, the rank AUC (the chance that a right
-- value was given a higher confidence than a wrong one, ties counting a half; NULL without
-- both kinds) and the expected calibration error (ECE: the mean, weighted by values, of
-- |accuracy - mean confidence| over confidence_reliability's ten bins). A run not asked for
-- confidences has no row: absent, not zero.
WITH asked AS (
    SELECT run_id FROM runs WHERE json_extract_string(parameters, '$.confidence') = 'true'
),
claimed AS (
    SELECT run_id, COUNT(*) AS claims, COUNT(confidence) AS stated
    FROM claims
    GROUP BY run_id
),
levels AS (
    SELECT run_id, confidence, SUM(correct) AS correct, SUM(incorrect) AS incorrect
    FROM confidence_units
    GROUP BY run_id, confidence
),
ranked AS (
    SELECT *,
           COALESCE(SUM(incorrect) OVER (PARTITION BY run_id ORDER BY confidence
                                         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
                    0) AS below
    FROM levels
),
auc AS (
    SELECT run_id, SUM(correct) AS correct, SUM(incorrect) AS incorrect,
           CASE WHEN SUM(correct) > 0 AND SUM(incorrect) > 0
                THEN SUM(correct * (below + 0.5 * incorrect)) / (SUM(correct) * SUM(incorrect))
           END AS auc
    FROM ranked
    GROUP BY run_id
),
ece AS (
    SELECT run_id, SUM(claims * ABS(gap)) / SUM(claims) AS ece
    FROM confidence_reliability
    GROUP BY run_id
)
SELECT a.run_id,
       COALESCE(c.claims, 0) AS claims,
       COALESCE(c.stated, 0) AS stated,
       COALESCE(auc.correct, 0) AS correct,
       COALESCE(auc.incorrect, 0) AS incorrect,
       auc.auc,
       ece.ece
FROM asked AS a
LEFT JOIN claimed AS c USING (run_id)
LEFT JOIN auc USING (run_id)
LEFT JOIN ece USING (run_id)
ORDER BY a.run_id
