-- Documents completed per run: listed in run.json, scored, and excluded by reason.
SELECT r.run_id, r.provider, r.model, r.simulator, r.status AS run_status,
       r.packets, r.documents_expected, r.invalid_policy,
       COUNT(*) FILTER (WHERE d.status = 'scored') AS scored,
       COUNT(*) FILTER (WHERE d.status = 'missing') AS missing,
       COUNT(*) FILTER (WHERE d.status = 'error') AS error,
       COUNT(*) FILTER (WHERE d.status = 'invalid') AS invalid,
       COUNT(*) FILTER (WHERE d.salvaged) AS salvaged,
       COUNT(*) FILTER (WHERE d.status <> 'scored') AS excluded
FROM runs AS r
LEFT JOIN documents AS d USING (run_id)
GROUP BY ALL
ORDER BY r.run_id
