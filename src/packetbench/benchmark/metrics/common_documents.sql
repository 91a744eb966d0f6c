-- The documents every run of the set scored: the one set on which their rates compare (a run
-- that completed fewer documents is otherwise rated on other documents than the rest).
SELECT packet_id, doc_id
FROM documents
WHERE status = 'scored'
GROUP BY packet_id, doc_id
HAVING COUNT(DISTINCT run_id) = (SELECT COUNT(*) FROM runs)
ORDER BY packet_id, doc_id
