"""Presentation patterns (PATTERNS.md): the registry, tier presets and one module per family.

Family modules (``table``, ``data``, ``overlay``, ...) register their patterns when imported;
`base.catalogue()` imports them on first use, so importing this package stays cheap.
"""
