"""`python -m benchmark` runs the packetbench command."""

from benchmark.cli import main

main()
