-- The `abstention_units` rows of one cause: fields the page shows only past reading (the rows,
-- their outcomes and what each means are described there).
SELECT * EXCLUDE (cause)
FROM abstention_units
WHERE cause = 'illegible'
ORDER BY run_id, packet_id, doc_id, metric
