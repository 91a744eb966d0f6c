"""packetbench as an inspect_ai task (the `packetbench[inspect]` extra).

`task` registers ``packetbench/extract`` (through the ``inspect_ai`` entry point group),
`scorer` scores a sample with packetbench's own scorer, `convert` turns an inspect log into
a packetbench run folder. Only those three modules import inspect_ai; `documents` and
`records` are packetbench alone, so nothing here loads inspect_ai until inspect does.
"""
