-- The grounding rates of every cited run by tier, document type and presentation pattern,
-- worst first (lowest rate; right_ungrounded and hallucinated_cited, where lower is better,
-- highest first). Tier and document type pool grounding_units; a pattern pools the claims
-- it touched, and its grounding F1 pools them with the populated truth fields it touched
-- (fields: 2 TP / (claims + populated truth fields), as grounding_units counts a document).
WITH units AS (
    SELECT run_id, 'tier' AS dimension, tier AS slice, metric, SUM(num) AS num, SUM(den) AS den
    FROM grounding_units GROUP BY ALL
    UNION ALL
    SELECT run_id, 'doc_type', doc_type, metric, SUM(num), SUM(den)
    FROM grounding_units GROUP BY ALL
    UNION ALL
    SELECT c.run_id, 'pattern', p.pattern, m.metric, SUM(m.num), SUM(m.den)
    FROM (SELECT *, UNNEST(patterns) AS pattern FROM claims WHERE citation IS NOT NULL) AS c
    JOIN (SELECT run_id, json_extract_string(parameters, '$.cite') AS mode FROM runs) AS r
        USING (run_id),
    LATERAL (SELECT c.pattern) AS p(pattern),
    LATERAL (VALUES
        ('citation_recall', CAST(c.citation <> 'uncited' AS INTEGER), 1),
        ('citation_precision_page',
            CAST(c.verdict = 'supported' AND c.citation IN ('right_page', 'right_box')
                 AS INTEGER),
            CAST(c.citation <> 'uncited' AS INTEGER)),
        ('citation_precision_box',
            CAST(c.verdict = 'supported' AND c.citation = 'right_box' AS INTEGER),
            CASE WHEN r.mode = 'box' THEN CAST(c.citation <> 'uncited' AS INTEGER) ELSE 0 END),
        ('grounding_f1_value', 2 * CAST(c.verdict = 'supported' AS INTEGER), 1),
        ('grounding_f1_page',
            2 * CAST(c.verdict = 'supported' AND c.citation IN ('right_page', 'right_box')
                     AS INTEGER),
            1),
        ('grounding_f1_box',
            2 * CAST(c.verdict = 'supported' AND c.citation = 'right_box' AS INTEGER),
            CASE WHEN r.mode = 'box' THEN 1 ELSE 0 END)
    ) AS m(metric, num, den)
    GROUP BY ALL
    UNION ALL
    -- the populated truth fields a pattern touched: the other half of each F1's denominator
    SELECT f.run_id, 'pattern', f.pattern, m.metric, 0, SUM(m.den)
    FROM (SELECT *, UNNEST(patterns) AS pattern FROM fields WHERE populated) AS f
    JOIN (SELECT run_id, json_extract_string(parameters, '$.cite') AS mode FROM runs
          WHERE json_extract_string(parameters, '$.cite') IS NOT NULL) AS r
        USING (run_id)
    JOIN documents AS d USING (run_id, packet_id, doc_id),
    LATERAL (VALUES
        ('grounding_f1_value', 1),
        ('grounding_f1_page', 1),
        ('grounding_f1_box', CASE WHEN r.mode = 'box' THEN 1 ELSE 0 END)
    ) AS m(metric, den)
    -- native citations (--cite native) cover PDF documents only
    WHERE r.mode <> 'native' OR d.format = 'pdf'
    GROUP BY ALL
),
pooled AS (
    SELECT run_id, dimension, slice, metric, SUM(num) AS num, SUM(den) AS den
    FROM units
    GROUP BY ALL
)
SELECT run_id, dimension, slice, metric, num, den,
       CASE WHEN den > 0 THEN num / den END AS rate
FROM pooled
WHERE den > 0
ORDER BY run_id, dimension, metric,
         CASE WHEN metric IN ('right_ungrounded', 'hallucinated_cited') THEN -rate ELSE rate END,
         slice
