-- Consistency flags per run and rule, the most frequent first.
SELECT run_id, rule, COUNT(*) AS flags,
       COUNT(DISTINCT packet_id || '/' || doc_id) AS documents
FROM consistency_flags
GROUP BY run_id, rule
ORDER BY run_id, flags DESC, rule
