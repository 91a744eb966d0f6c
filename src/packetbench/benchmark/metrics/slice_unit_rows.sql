-- Numerator and denominator of the headline rates per document and slice. Slices: tier,
-- document type and format (whole documents); field kind, field class (table or form) and
-- presentation pattern (the claims and truth fields of that kind or class, or that the pattern
-- touched, only; "(untouched)" holds those no pattern touched), and pattern by tier.
-- Unordered, so DuckDB can spill it while aggregating (slices.sql) or counting it into arrays
-- (benchmark.report.estimates); slice_units.sql is the same rows in order.
WITH documents_scored AS (
    SELECT * FROM documents WHERE status = 'scored'
),
by_document AS (
    SELECT u.run_id, u.packet_id, u.doc_id, s.dimension, s.slice, u.metric, u.num, u.den
    FROM unit_rates AS u,
    LATERAL (VALUES ('tier', u.tier), ('doc_type', u.doc_type), ('format', u.format))
        AS s(dimension, slice)
),
claim_slices AS (
    SELECT c.run_id, c.packet_id, c.doc_id, c.verdict, c.value_class, c.hallucinated,
           c.hallucinated_document, s.dimension, s.slice
    FROM claims AS c,
    LATERAL (VALUES ('kind', c.kind), ('field_class', c.field_class)) AS s(dimension, slice)
    UNION ALL
    SELECT c.run_id, c.packet_id, c.doc_id, c.verdict, c.value_class, c.hallucinated,
           c.hallucinated_document, s.dimension, s.slice
    FROM (SELECT *, UNNEST(CASE WHEN len(patterns) > 0 THEN patterns
                                ELSE ['(untouched)'] END) AS pattern
          FROM claims) AS c,
    LATERAL (VALUES ('pattern', c.pattern), ('pattern_tier', c.pattern || ' / ' || c.tier))
        AS s(dimension, slice)
),
field_slices AS (
    SELECT f.run_id, f.packet_id, f.doc_id, f.populated, f.outcome, s.dimension, s.slice
    FROM fields AS f,
    LATERAL (VALUES ('kind', f.kind), ('field_class', f.field_class)) AS s(dimension, slice)
    UNION ALL
    SELECT f.run_id, f.packet_id, f.doc_id, f.populated, f.outcome, s.dimension, s.slice
    FROM (SELECT f.*, d.tier,
                 UNNEST(CASE WHEN len(f.patterns) > 0 THEN f.patterns
                             ELSE ['(untouched)'] END) AS pattern
          FROM fields AS f JOIN documents_scored AS d USING (run_id, packet_id, doc_id)) AS f,
    LATERAL (VALUES ('pattern', f.pattern), ('pattern_tier', f.pattern || ' / ' || f.tier))
        AS s(dimension, slice)
),
claim_counts AS (
    SELECT c.run_id, c.packet_id, c.doc_id, c.dimension, c.slice,
           COUNT(*) AS claims,
           COUNT(*) FILTER (WHERE c.verdict = 'supported') AS supported,
           COUNT(c.hallucinated) FILTER (WHERE c.value_class = 'numbers') AS numbers_checked,
           COUNT(*) FILTER (WHERE c.value_class = 'numbers' AND c.hallucinated)
               AS numbers_hallucinated,
           COUNT(*) FILTER (WHERE c.value_class = 'numbers' AND c.hallucinated_document)
               AS numbers_hallucinated_document,
           COUNT(c.hallucinated) FILTER (WHERE c.value_class = 'strings') AS strings_checked,
           COUNT(*) FILTER (WHERE c.value_class = 'strings' AND c.hallucinated)
               AS strings_hallucinated,
           COUNT(*) FILTER (WHERE c.value_class = 'strings' AND c.hallucinated_document)
               AS strings_hallucinated_document
    FROM claim_slices AS c
    JOIN documents_scored AS d USING (run_id, packet_id, doc_id)
    GROUP BY ALL
),
by_claims AS (
    SELECT run_id, packet_id, doc_id, dimension, slice, u.metric, u.num, u.den
    FROM claim_counts,
    LATERAL (VALUES
        ('halluc_numbers', numbers_hallucinated, numbers_checked),
        ('halluc_strings', strings_hallucinated, strings_checked),
        ('halluc_all', numbers_hallucinated + strings_hallucinated,
            numbers_checked + strings_checked),
        ('halluc_numbers_document', numbers_hallucinated_document, numbers_checked),
        ('halluc_strings_document', strings_hallucinated_document, strings_checked),
        ('faithfulness', supported, claims)
    ) AS u(metric, num, den)
),
field_counts AS (
    SELECT f.run_id, f.packet_id, f.doc_id, f.dimension, f.slice,
           COUNT(*) FILTER (WHERE f.populated) AS populated,
           COUNT(*) FILTER (WHERE f.outcome = 'correct') AS correct,
           COUNT(*) FILTER (WHERE f.outcome = 'wrong') AS wrong,
           COUNT(*) FILTER (WHERE f.outcome = 'omitted') AS omitted,
           COUNT(*) FILTER (WHERE NOT f.populated) AS empty,
           COUNT(*) FILTER (WHERE f.outcome = 'abstained') AS abstained
    FROM field_slices AS f
    GROUP BY ALL
),
by_fields AS (
    SELECT run_id, packet_id, doc_id, dimension, slice, u.metric, u.num, u.den
    FROM field_counts,
    LATERAL (VALUES
        ('recall', correct, populated),
        ('wrong', wrong, populated),
        ('over_refusal', omitted, populated),
        ('correct_abstention', abstained, empty)
    ) AS u(metric, num, den)
)
SELECT run_id, packet_id, doc_id, dimension, slice, metric,
       CAST(num AS BIGINT) AS num, CAST(den AS BIGINT) AS den
FROM (SELECT * FROM by_document UNION ALL SELECT * FROM by_claims
      UNION ALL SELECT * FROM by_fields)
