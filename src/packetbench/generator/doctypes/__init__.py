"""Document types, one package each; `base.DOC_TYPES` imports them all on its first lookup.

Each public sub-package calls `base.register` when imported, so adding a document type is
adding a package here.
"""
