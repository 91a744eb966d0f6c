"""``python -m packetbench.benchmark.harness.stub``: a stub server in a process of its own."""

from packetbench.benchmark.harness.stub import main

main()
