"""Grounded answers (`--cite`): evidence asked for with each value, recorded, and scored.

`schema` wraps a document schema with an `evidence` list the three providers' strict modes
accept; `citations` turns what a model cited into the record's form (normalised page boxes
converted to PDF points); `boxes` holds the geometry both sides share.
"""
