"""Document types. Importing this package registers every type it contains.

Each sub-package (or module) that is not private calls `base.register` when imported, so adding
a document type is adding a package here; modules are imported in name order.
"""

import importlib
import pkgutil

_SHARED = {"base", "common"}

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _module.name not in _SHARED and not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")
