-- The grounding rates of every cited run (micro: pooled counts; macro: the mean of the
-- documents' own rates), from grounding_units. A rate over nothing is NULL, not 0; a run
-- without citations has no rows.
SELECT run_id, metric,
       SUM(num) AS num,
       SUM(den) AS den,
       CASE WHEN SUM(den) > 0 THEN SUM(num) / SUM(den) END AS micro,
       AVG(CASE WHEN den > 0 THEN num / den END) AS macro,
       COUNT(*) FILTER (WHERE den > 0) AS documents
FROM grounding_units
GROUP BY run_id, metric
ORDER BY run_id, metric
