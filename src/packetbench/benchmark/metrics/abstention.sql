-- Fields whose truth is null for the run, per cause (abstention_units), per run, as a whole
-- (tier 'all', first) and per tier: the documents that have them, the fields, how many were
-- left empty (abstained: the correct answer) and how many guessed, by outcome, each with its
-- share of the fields; the four shares add up to 1. Guesses are in no hallucination rate: this
-- is where they are reported. A run with no such fields has no row: absent, not zero.
-- illegible and below_resolution are its two causes.
WITH counts AS (
    SELECT cause, run_id, tier, packet_id, doc_id,
           MAX(den) AS fields,
           SUM(num) FILTER (WHERE metric = 'abstained') AS abstained,
           SUM(num) FILTER (WHERE metric = 'guess_right') AS guess_right,
           SUM(num) FILTER (WHERE metric = 'guess_grounded') AS guess_grounded,
           SUM(num) FILTER (WHERE metric = 'guess_wrong') AS guess_wrong
    FROM abstention_units
    GROUP BY ALL
),
sliced AS (
    SELECT * REPLACE ('all' AS tier) FROM counts
    UNION ALL
    SELECT * FROM counts
)
SELECT cause, run_id, tier,
       COUNT(*) AS documents,
       SUM(fields) AS fields,
       SUM(abstained) AS abstained,
       SUM(guess_right) AS guess_right,
       SUM(guess_grounded) AS guess_grounded,
       SUM(guess_wrong) AS guess_wrong,
       SUM(guess_right + guess_grounded + guess_wrong) AS guesses,
       SUM(abstained) / SUM(fields) AS abstention_rate,
       SUM(guess_right) / SUM(fields) AS guess_right_rate,
       SUM(guess_grounded) / SUM(fields) AS guess_grounded_rate,
       SUM(guess_wrong) / SUM(fields) AS guess_wrong_rate
FROM sliced
GROUP BY cause, run_id, tier
ORDER BY cause, run_id, tier <> 'all', tier
