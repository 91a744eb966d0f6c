-- unit_rates on the documents every run scored (common_documents.sql) only.
SELECT u.*
FROM unit_rates AS u
JOIN common_documents AS c USING (packet_id, doc_id)
ORDER BY u.run_id, u.packet_id, u.doc_id, u.metric
