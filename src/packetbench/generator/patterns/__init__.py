"""Presentation patterns (docs/patterns.md): the registry, tier presets and a module per family.

Each family module (``table``, ``data``, ``overlay``, ...) declares its patterns with the
`base.pattern` decorator on their own functions; a family that is a package (``textlayer``,
``hand``: a module a pattern) imports its modules in declaration order. `base.PATTERNS` imports
the family modules on its first lookup, so importing this package stays cheap.
"""
