-- Per scored document with illegible fields, and per outcome: how its illegible fields were
-- answered, over its illegible fields. An illegible field is one whose value the page shows
-- only past reading (docs/patterns.md rule 3b: the truth is null there, abstention expected):
-- left empty it is `abstained` (a correct abstention); a value emitted there is a guess,
-- `guess_right` (the destroyed value), `guess_grounded` (another value the packet shows) or
-- `guess_wrong` (a value shown nowhere), reported apart from every hallucination rate. The
-- four outcomes partition the fields. The report resamples these rows (bootstrap over
-- documents). A run whose packets have no illegible values has no rows: absent, not zero.
WITH illegible_fields AS (
    SELECT run_id, packet_id, doc_id,
           COUNT(*) AS fields,
           COUNT(*) FILTER (WHERE outcome = 'abstained') AS abstained
    FROM fields
    WHERE illegible
    GROUP BY ALL
),
guesses AS (
    SELECT run_id, packet_id, doc_id,
           COUNT(*) FILTER (WHERE guess = 'guess_right') AS guess_right,
           COUNT(*) FILTER (WHERE guess = 'guess_grounded') AS guess_grounded,
           COUNT(*) FILTER (WHERE guess = 'guess_wrong') AS guess_wrong
    FROM claims
    WHERE guess IS NOT NULL AND NOT below_resolution
    GROUP BY ALL
)
SELECT d.run_id, d.packet_id, d.doc_id, d.tier, d.doc_type, d.format, u.metric, u.num, u.den
FROM documents AS d
JOIN illegible_fields AS f USING (run_id, packet_id, doc_id)
LEFT JOIN guesses AS g USING (run_id, packet_id, doc_id),
LATERAL (VALUES
    ('abstained', f.abstained, f.fields),
    ('guess_right', COALESCE(g.guess_right, 0), f.fields),
    ('guess_grounded', COALESCE(g.guess_grounded, 0), f.fields),
    ('guess_wrong', COALESCE(g.guess_wrong, 0), f.fields)
) AS u(metric, num, den)
WHERE d.status = 'scored'
ORDER BY d.run_id, d.packet_id, d.doc_id, u.metric
