-- Tokens, cost, attempts and latency per run, over every document that has a record.
SELECT run_id,
       COUNT(record_status) AS records,
       SUM(attempts) AS attempts,
       SUM(input_tokens) AS input_tokens,
       SUM(output_tokens) AS output_tokens,
       SUM(reasoning_tokens) AS reasoning_tokens,
       SUM(cost_usd) AS cost_usd,
       CASE WHEN COUNT(*) FILTER (WHERE status = 'scored') > 0
            THEN SUM(cost_usd) / COUNT(*) FILTER (WHERE status = 'scored') END
           AS cost_per_scored_document,
       SUM(latency_s) AS latency_s,
       AVG(latency_s) AS mean_latency_s
FROM documents
GROUP BY run_id
ORDER BY run_id
