-- The verdict mix per run: how many claims got each verdict, and their share of all claims.
WITH totals AS (
    SELECT run_id, v.position, v.verdict, SUM(v.claims) AS claims
    FROM documents,
    LATERAL (VALUES (1, 'supported', supported), (2, 'contradicted', contradicted),
                    (3, 'stale', stale), (4, 'overreach', overreach),
                    (5, 'unlinked', unlinked)) AS v(position, verdict, claims)
    WHERE status = 'scored'
    GROUP BY ALL
)
SELECT run_id, position, verdict, claims,
       CASE WHEN SUM(claims) OVER (PARTITION BY run_id) > 0
            THEN claims / SUM(claims) OVER (PARTITION BY run_id) END AS share
FROM totals
ORDER BY run_id, position
