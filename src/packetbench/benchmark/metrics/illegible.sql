-- The `abstention` rows of one cause: fields the page shows only past reading, per run and
-- tier (the columns and what each means are described there).
SELECT * EXCLUDE (cause)
FROM abstention
WHERE cause = 'illegible'
ORDER BY run_id, tier <> 'all', tier
