-- Every headline rate per slice, worst slice first (highest rate where lower is better,
-- lowest where higher is better). `small` marks a slice with too few documents or values to
-- compare (thresholds in the settings table; the report prints them).
SELECT s.run_id, s.dimension, s.slice, c.position, s.metric, c.label, c.better,
       COUNT(*) FILTER (WHERE s.den > 0) AS documents,
       SUM(s.num) AS num,
       SUM(s.den) AS den,
       CASE WHEN SUM(s.den) > 0 THEN SUM(s.num) / SUM(s.den) END AS micro,
       -- in document order: a sum of floats depends on its order, and the rows have none
       AVG(s.num / s.den ORDER BY s.packet_id, s.doc_id) FILTER (WHERE s.den > 0) AS macro,
       (COUNT(*) FILTER (WHERE s.den > 0) < ANY_VALUE(t.min_documents)
        OR SUM(s.den) < ANY_VALUE(t.min_values)) AS small
FROM slice_unit_rows AS s
JOIN catalog AS c USING (metric)
CROSS JOIN settings AS t
GROUP BY s.run_id, s.dimension, s.slice, c.position, s.metric, c.label, c.better
HAVING SUM(s.den) > 0
ORDER BY s.run_id, s.dimension, c.position,
         CASE WHEN c.better = 'lower' THEN -micro ELSE micro END, s.slice
