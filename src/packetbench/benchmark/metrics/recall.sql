-- The recall view per run: populated truth fields correct, wrong or omitted; empty truth
-- fields abstained or answered; records invented and dropped.
SELECT run_id,
       SUM(gt_fields) AS gt_fields, SUM(correct) AS correct, SUM(wrong) AS wrong,
       SUM(omitted) AS omitted, SUM(gt_null_fields) AS gt_null_fields,
       SUM(abstained) AS abstained, SUM(answered) AS answered,
       SUM(invented_records) AS invented_records, SUM(dropped_records) AS dropped_records
FROM documents
WHERE status = 'scored'
GROUP BY run_id
ORDER BY run_id
