-- The headline rates: name, what the report calls it, its definition, and which way is
-- better. Each is a ratio of two per-document counts (unit_rates.sql): the micro rate pools
-- them (SUM(num) / SUM(den)), the macro rate averages the documents' own rates.
SELECT * FROM (VALUES
    (1, 'halluc_numbers', 'Numeric hallucination rate',
        'checked numbers shown nowhere in the packet / checked numbers', 'lower', 'grounding'),
    (2, 'halluc_strings', 'String hallucination rate',
        'checked strings, dates and codes shown nowhere in the packet / checked strings',
        'lower', 'grounding'),
    (3, 'halluc_all', 'Hallucination rate, all values',
        'checked values shown nowhere in the packet / checked values', 'lower', 'grounding'),
    (4, 'halluc_numbers_document', 'Numeric hallucination rate (document universe)',
        'checked numbers shown nowhere in their own document / checked numbers', 'lower',
        'grounding'),
    (5, 'halluc_strings_document', 'String hallucination rate (document universe)',
        'checked strings shown nowhere in their own document / checked strings', 'lower',
        'grounding'),
    (6, 'faithfulness', 'Faithfulness',
        'claims equal to the truth at their path (supported) / claims', 'higher', 'claims'),
    (7, 'recall', 'Recall (correct)', 'correct / populated truth fields', 'higher', 'fields'),
    (8, 'wrong', 'Wrong values', 'wrong / populated truth fields', 'lower', 'fields'),
    (9, 'over_refusal', 'Over-refusal (omitted)',
        'populated truth fields left empty / populated truth fields', 'lower', 'fields'),
    (10, 'correct_abstention', 'Correct abstention',
        'empty truth fields left empty / empty truth fields', 'higher', 'fields'),
    (11, 'consistency_failure', 'Arithmetic inconsistency',
        'failed consistency checks / consistency checks with all inputs present', 'lower',
        'consistency'),
    (12, 'invented_keys', 'Invented keys',
        'keys the schema lacks / keys the output wrote (an invalid output is scored on the '
        'leaves that fit only with --invalid salvage)', 'lower', 'keys')
) AS catalog(position, metric, label, definition, better, family)
ORDER BY position
