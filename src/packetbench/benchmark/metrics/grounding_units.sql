-- Numerator and denominator of every grounding rate (extract --cite), per scored document of
-- a cited run. A run that asked for no citations (every imported reference cohort among
-- them) has no rows here: its grounding is absent, not zero. Claims nest value >= page >=
-- box: a citation supports a claim only when the value is right (verdict supported) and the
-- place is (claims.citation, benchmark.grounding.cited.cited_place). Each grounding F1 is
-- 2 TP / (claims + populated truth fields), the harmonic mean of TP / claims (precision) and
-- TP / populated truth fields (recall), so it resamples like every other ratio of counts.
-- Box rates exist for runs cited with --cite box only; a --cite native run's rates are over its
-- PDF documents (the provider's own citations cover no workbook or CSV file).
WITH cited_runs AS (
    SELECT run_id, json_extract_string(parameters, '$.cite') AS mode
    FROM runs
    WHERE json_extract_string(parameters, '$.cite') IS NOT NULL
),
per_doc AS (
    SELECT run_id, packet_id, doc_id,
           COUNT(*) AS claims,
           COUNT(*) FILTER (WHERE citation <> 'uncited') AS cited,
           COUNT(*) FILTER (WHERE verdict = 'supported') AS supported,
           COUNT(*) FILTER (WHERE verdict = 'supported'
                            AND citation IN ('right_page', 'right_box')) AS page_ok,
           COUNT(*) FILTER (WHERE verdict = 'supported' AND citation = 'right_box') AS box_ok,
           COUNT(*) FILTER (WHERE verdict = 'supported'
                            AND citation IN ('uncited', 'wrong_place')) AS right_ungrounded,
           COUNT(*) FILTER (WHERE hallucinated AND citation <> 'uncited') AS hallucinated_cited
    FROM claims
    WHERE citation IS NOT NULL
    GROUP BY ALL
)
SELECT d.run_id, d.packet_id, d.doc_id, d.tier, d.doc_type, d.format, u.metric, u.num, u.den
FROM documents AS d
JOIN cited_runs AS r USING (run_id)
LEFT JOIN per_doc AS p USING (run_id, packet_id, doc_id),
LATERAL (VALUES
    ('citation_recall', COALESCE(p.cited, 0), COALESCE(p.claims, 0)),
    ('citation_precision_page', COALESCE(p.page_ok, 0), COALESCE(p.cited, 0)),
    ('citation_precision_box', COALESCE(p.box_ok, 0), COALESCE(p.cited, 0)),
    ('grounding_f1_value', 2 * COALESCE(p.supported, 0), COALESCE(p.claims, 0) + d.gt_fields),
    ('grounding_f1_page', 2 * COALESCE(p.page_ok, 0), COALESCE(p.claims, 0) + d.gt_fields),
    ('grounding_f1_box', 2 * COALESCE(p.box_ok, 0), COALESCE(p.claims, 0) + d.gt_fields),
    ('right_ungrounded', COALESCE(p.right_ungrounded, 0), COALESCE(p.claims, 0)),
    ('hallucinated_cited', COALESCE(p.hallucinated_cited, 0), COALESCE(p.claims, 0))
) AS u(metric, num, den)
WHERE d.status = 'scored' AND (u.metric NOT LIKE '%_box' OR r.mode = 'box')
    -- native citations (--cite native) cover PDF documents only
    AND (r.mode <> 'native' OR d.format = 'pdf')
ORDER BY d.run_id, d.packet_id, d.doc_id, u.metric
