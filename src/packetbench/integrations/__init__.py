"""packetbench inside other evaluation tools; each integration imports its tool only there."""
