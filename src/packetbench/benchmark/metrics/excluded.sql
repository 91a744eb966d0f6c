-- Every document a run did not complete, with the reason.
SELECT run_id, packet_id, doc_id, status, record_status, reason
FROM documents
WHERE status <> 'scored'
ORDER BY run_id, packet_id, doc_id
