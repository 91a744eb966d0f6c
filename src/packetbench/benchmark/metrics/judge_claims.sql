-- Each judge label beside the scorer's exact verdict of the same claim (joined on the claim's
-- output path): the rows every calibration metric counts. "Hallucinated" is any verdict but
-- supported; truth_null marks claims where the truth holds nothing (unanswerable fields), and
-- illegible those of them that guess at a value the page shows only past reading.
SELECT j.run_id, j.judge_id, j.judge, j.model, j.packet_id, j.doc_id, j.doc_type, j.tier,
       j.path, j.kind, c.verdict AS truth_verdict, j.verdict AS judge_verdict,
       c.verdict <> 'supported' AS truth_hallucinated,
       j.verdict <> 'supported' AS judge_hallucinated,
       c.truth IS NULL OR CAST(c.truth AS VARCHAR) = 'null' AS truth_null,
       c.guess IS NOT NULL AND NOT c.below_resolution AS illegible,
       c.patterns
FROM judge_labels AS j
JOIN claims AS c
  ON c.run_id = j.run_id AND c.packet_id = j.packet_id AND c.doc_id = j.doc_id
 AND c.source = j.path
