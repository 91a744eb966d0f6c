-- The judge's confusion matrix per run and judge: claims by the scorer's verdict (truth) and
-- the judge's.
SELECT run_id, judge_id, truth_verdict, judge_verdict, COUNT(*) AS claims
FROM judge_claims
GROUP BY ALL
ORDER BY run_id, judge_id, truth_verdict, judge_verdict
