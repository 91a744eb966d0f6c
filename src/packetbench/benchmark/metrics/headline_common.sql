-- Every headline rate of every run on the documents every run scored (common_documents.sql):
-- the rates that compare across runs. Micro and macro side by side; a rate over nothing is
-- NULL, never 0.
SELECT u.run_id, c.position, u.metric, c.label, c.better,
       COUNT(*) AS documents,
       COUNT(*) FILTER (WHERE u.den > 0) AS documents_with_values,
       SUM(u.num) AS num,
       SUM(u.den) AS den,
       CASE WHEN SUM(u.den) > 0 THEN SUM(u.num) / SUM(u.den) END AS micro,
       AVG(u.num / u.den) FILTER (WHERE u.den > 0) AS macro
FROM unit_rates_common AS u
JOIN catalog AS c USING (metric)
GROUP BY u.run_id, c.position, u.metric, c.label, c.better
ORDER BY u.run_id, c.position
