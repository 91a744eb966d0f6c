-- Per scored document, per field whose truth is null for the run (abstention expected), and per
-- outcome: how those fields were answered, over them, by `cause`: `illegible` (the page shows
-- the value only past reading, docs/patterns.md rule 3b) or `below_resolution` (the value is
-- legible in the file but not on the page as the run sent it to the model: run.json
-- `delivery`, docs/resolution.md).
-- Left empty a field is `abstained` (a correct abstention); a value emitted there is a guess,
-- `guess_right` (the value the file holds: counted apart, not as a hit), `guess_grounded`
-- (another value the packet shows) or `guess_wrong` (a value shown nowhere), reported apart
-- from every hallucination rate. The four outcomes partition a cause's fields. The report
-- resamples these rows (bootstrap over documents). A run with no such fields has no rows:
-- absent, not zero. illegible_units and below_resolution_units are its two causes.
WITH null_fields AS (
    SELECT run_id, packet_id, doc_id, 'illegible' AS cause,
           COUNT(*) AS fields,
           COUNT(*) FILTER (WHERE outcome = 'abstained') AS abstained
    FROM fields
    WHERE illegible
    GROUP BY ALL
    UNION ALL
    SELECT run_id, packet_id, doc_id, 'below_resolution' AS cause,
           COUNT(*) AS fields,
           COUNT(*) FILTER (WHERE outcome = 'abstained') AS abstained
    FROM fields
    WHERE below_resolution
    GROUP BY ALL
),
guesses AS (
    SELECT run_id, packet_id, doc_id,
           CASE WHEN below_resolution THEN 'below_resolution' ELSE 'illegible' END AS cause,
           COUNT(*) FILTER (WHERE guess = 'guess_right') AS guess_right,
           COUNT(*) FILTER (WHERE guess = 'guess_grounded') AS guess_grounded,
           COUNT(*) FILTER (WHERE guess = 'guess_wrong') AS guess_wrong
    FROM claims
    WHERE guess IS NOT NULL
    GROUP BY ALL
)
SELECT f.cause, d.run_id, d.packet_id, d.doc_id, d.tier, d.doc_type, d.format,
       u.metric, u.num, u.den
FROM documents AS d
JOIN null_fields AS f USING (run_id, packet_id, doc_id)
LEFT JOIN guesses AS g USING (run_id, packet_id, doc_id, cause),
LATERAL (VALUES
    ('abstained', f.abstained, f.fields),
    ('guess_right', COALESCE(g.guess_right, 0), f.fields),
    ('guess_grounded', COALESCE(g.guess_grounded, 0), f.fields),
    ('guess_wrong', COALESCE(g.guess_wrong, 0), f.fields)
) AS u(metric, num, den)
WHERE d.status = 'scored'
ORDER BY f.cause, d.run_id, d.packet_id, d.doc_id, u.metric
