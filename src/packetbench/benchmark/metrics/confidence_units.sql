-- Per scored document of a run asked for confidences (extract --confidence) and per stated
-- confidence: how many of the values given it are right (verdict supported) and how many are
-- not. A value given no usable confidence is left out (confidence.stated counts those given
-- one). The rank AUC and the reliability curve pool these counts, and the report resamples
-- documents over them, so the interval of the AUC is over documents, as every other one.
SELECT run_id, packet_id, doc_id, tier, doc_type, confidence,
       COUNT(*) FILTER (WHERE verdict = 'supported') AS correct,
       COUNT(*) FILTER (WHERE verdict <> 'supported') AS incorrect
FROM claims
WHERE confidence IS NOT NULL
GROUP BY ALL
ORDER BY run_id, packet_id, doc_id, confidence
