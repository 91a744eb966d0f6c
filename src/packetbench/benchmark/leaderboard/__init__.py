"""`packetbench leaderboard`: one row per system on one split of a release, every rate with its
95 % interval, cost per page and per correct value, and paired tests against the leader
(docs/release.md).

board       the rows: each run checked against the release, its rates from the results views
render      leaderboard.md, leaderboard.html and leaderboard.csv
submission  `leaderboard --check`: whether a submission was made on the release's packets
"""
