"""Importers: published extraction benchmarks converted into packetbench's artifact contract."""
