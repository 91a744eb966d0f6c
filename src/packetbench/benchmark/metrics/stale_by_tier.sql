-- Stale verdicts per run and tier: claims equal only to what a superseded document (last
-- year's SOV, a loss run at an earlier valuation date) holds at the same place.
SELECT run_id, tier,
       SUM(stale) AS stale,
       SUM(supported + contradicted + stale + overreach + unlinked) AS claims,
       COUNT(*) AS documents
FROM documents
WHERE status = 'scored'
GROUP BY ALL
ORDER BY run_id, tier
