"""`packetbench verify`: a judge labels every claim of a run, and is calibrated on packets.

`claims` lists a record's claims (its emitted leaves); `judges` holds the judges (the `sim`
judge with configured confusion rates); `labelling` runs a judge over a run into
``RUN/judge/<judge_id>/``; `calibration` compares the labels with the scorer's exact verdicts;
`correction` turns a judge's raw hallucination rate into a corrected one (Rogan-Gladen).
"""
