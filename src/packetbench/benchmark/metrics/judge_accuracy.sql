-- The judge's sensitivity and specificity for "hallucinated" (any verdict but supported),
-- overall and per slice: tier, document type, field kind, pattern family (the part of a
-- pattern id before its dot; a claim counts once per family that touched it) and truth
-- (null: unanswerable fields; illegible: the unanswerable fields whose value the page shows
-- only past reading; populated). A rate over nothing is NULL.
WITH sliced AS (
    SELECT run_id, judge_id, 'overall' AS slice, 'all' AS value, truth_hallucinated,
           judge_hallucinated FROM judge_claims
    UNION ALL
    SELECT run_id, judge_id, 'tier', tier, truth_hallucinated, judge_hallucinated
    FROM judge_claims
    UNION ALL
    SELECT run_id, judge_id, 'doc_type', doc_type, truth_hallucinated, judge_hallucinated
    FROM judge_claims
    UNION ALL
    SELECT run_id, judge_id, 'kind', kind, truth_hallucinated, judge_hallucinated
    FROM judge_claims
    UNION ALL
    SELECT run_id, judge_id, 'truth',
           CASE WHEN illegible THEN 'illegible' WHEN truth_null THEN 'null' ELSE 'populated' END,
           truth_hallucinated, judge_hallucinated FROM judge_claims
    UNION ALL
    SELECT DISTINCT ON (run_id, judge_id, packet_id, doc_id, path, family)
           run_id, judge_id, 'pattern_family', family, truth_hallucinated, judge_hallucinated
    FROM (SELECT *, split_part(UNNEST(patterns), '.', 1) AS family FROM judge_claims)
)
SELECT run_id, judge_id, slice, value, COUNT(*) AS claims,
       COUNT(*) FILTER (WHERE truth_hallucinated) AS hallucinated,
       COUNT(*) FILTER (WHERE truth_hallucinated AND judge_hallucinated) AS flagged,
       COUNT(*) FILTER (WHERE NOT truth_hallucinated AND NOT judge_hallucinated) AS cleared,
       COUNT(*) FILTER (WHERE truth_hallucinated AND judge_hallucinated)
           / NULLIF(COUNT(*) FILTER (WHERE truth_hallucinated), 0) AS sensitivity,
       COUNT(*) FILTER (WHERE NOT truth_hallucinated AND NOT judge_hallucinated)
           / NULLIF(COUNT(*) FILTER (WHERE NOT truth_hallucinated), 0) AS specificity
FROM sliced
GROUP BY ALL
ORDER BY run_id, judge_id, slice, value
