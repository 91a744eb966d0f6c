-- The `abstention` rows of one cause: fields below the run's delivered resolution, per run and
-- tier (the columns and what each means are described there).
SELECT * EXCLUDE (cause)
FROM abstention
WHERE cause = 'below_resolution'
ORDER BY run_id, tier <> 'all', tier
