-- Per scored document with fields below the run's delivered resolution, and per outcome: how
-- those fields were answered, over them. Such a field's value is legible in the file but not
-- on the page as the run sent it to the model (run.json `delivery`, docs/resolution.md): its
-- truth is null for that run, abstention expected, exactly as for an illegible field. Left
-- empty it is `abstained` (a correct abstention); a value emitted there is a guess,
-- `guess_right` (the value the file holds: counted apart, not as a hit), `guess_grounded`
-- (another value the packet shows) or `guess_wrong` (a value shown nowhere), reported apart
-- from every hallucination rate. The four outcomes partition the fields. A run scored at the
-- file's resolution (no delivery, or one that hides nothing) has no rows: absent, not zero.
WITH below_fields AS (
    SELECT run_id, packet_id, doc_id,
           COUNT(*) AS fields,
           COUNT(*) FILTER (WHERE outcome = 'abstained') AS abstained
    FROM fields
    WHERE below_resolution
    GROUP BY ALL
),
guesses AS (
    SELECT run_id, packet_id, doc_id,
           COUNT(*) FILTER (WHERE guess = 'guess_right') AS guess_right,
           COUNT(*) FILTER (WHERE guess = 'guess_grounded') AS guess_grounded,
           COUNT(*) FILTER (WHERE guess = 'guess_wrong') AS guess_wrong
    FROM claims
    WHERE guess IS NOT NULL AND below_resolution
    GROUP BY ALL
)
SELECT d.run_id, d.packet_id, d.doc_id, d.tier, d.doc_type, d.format, u.metric, u.num, u.den
FROM documents AS d
JOIN below_fields AS f USING (run_id, packet_id, doc_id)
LEFT JOIN guesses AS g USING (run_id, packet_id, doc_id),
LATERAL (VALUES
    ('abstained', f.abstained, f.fields),
    ('guess_right', COALESCE(g.guess_right, 0), f.fields),
    ('guess_grounded', COALESCE(g.guess_grounded, 0), f.fields),
    ('guess_wrong', COALESCE(g.guess_wrong, 0), f.fields)
) AS u(metric, num, den)
WHERE d.status = 'scored'
ORDER BY d.run_id, d.packet_id, d.doc_id, u.metric
