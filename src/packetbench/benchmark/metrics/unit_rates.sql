-- Numerator and denominator of every headline rate (catalog.sql), per scored document.
-- Documents are the resampling unit of every interval (benchmark.stats.bootstrap). Keys are
-- counted only by a scoring with --invalid salvage: invented_keys is absent otherwise.
SELECT d.run_id, d.packet_id, d.doc_id, d.tier, d.doc_type, d.format, u.metric, u.num, u.den
FROM documents AS d,
LATERAL (VALUES
    ('halluc_numbers', d.numbers_hallucinated, d.numbers_checked),
    ('halluc_strings', d.strings_hallucinated, d.strings_checked),
    ('halluc_all', d.numbers_hallucinated + d.strings_hallucinated,
        d.numbers_checked + d.strings_checked),
    ('halluc_numbers_document', d.numbers_hallucinated_document, d.numbers_checked),
    ('halluc_strings_document', d.strings_hallucinated_document, d.strings_checked),
    ('faithfulness', d.supported, d.claims),
    ('recall', d.correct, d.gt_fields),
    ('wrong', d.wrong, d.gt_fields),
    ('over_refusal', d.omitted, d.gt_fields),
    ('correct_abstention', d.abstained, d.gt_null_fields),
    ('consistency_failure', d.consistency_failed, d.consistency_passed + d.consistency_failed),
    ('invented_keys', d.invented_keys, d.keys_emitted)
) AS u(metric, num, den)
WHERE d.status = 'scored' AND (u.metric <> 'invented_keys' OR u.den IS NOT NULL)
ORDER BY d.run_id, d.packet_id, d.doc_id, u.metric
