"""The reference corpus ("nightmare"): its packets, its 26 schemas and its 15 cohorts' outputs,
converted into packets and run folders that every packetbench command reads, and reconciled
with its own published rates."""
