-- The `abstention_units` rows of one cause: fields below the run's delivered resolution (the
-- rows, their outcomes and what each means are described there).
SELECT * EXCLUDE (cause)
FROM abstention_units
WHERE cause = 'below_resolution'
ORDER BY run_id, packet_id, doc_id, metric
