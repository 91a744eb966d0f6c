"""Presentation patterns (docs/patterns.md): the registry, tier presets and one module per family.

Each family module (``table``, ``data``, ``overlay``, ...) declares its patterns with the
`base.pattern` decorator on their own functions; `base.PATTERNS` imports the family modules on
its first lookup, so importing this package stays cheap.
"""
