-- Internal-consistency checks per run (arithmetic of the extraction alone).
SELECT run_id,
       SUM(consistency_checks) AS checks, SUM(consistency_passed) AS passed,
       SUM(consistency_failed) AS failed, SUM(consistency_skipped) AS skipped,
       COUNT(*) FILTER (WHERE consistency_failed > 0) AS documents_flagged
FROM documents
WHERE status = 'scored'
GROUP BY run_id
ORDER BY run_id
