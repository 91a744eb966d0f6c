"""What a renderer drew, and where: the raw material of every truth artifact.

Renderers never write truth themselves. They draw values by path through a `Recorder`, which
formats each value, remembers every location it was drawn at, and collects every visible
string for the rendered universe. The document truth is then the document model *projected
onto what was drawn*: a leaf with a value that was not drawn becomes null, but only where the
variant declares that omission, so a renderer that forgets a field fails loudly instead of
shrinking the truth silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.errors import LayoutError
from generator.leaves import DocModel, Leaf, leaf_index, leaf_patterns, path_pattern, set_path
from generator.render import fmt

Location = dict[str, Any]


@dataclass
class Drawn:
    rendered_as: str
    locations: list[Location] = field(default_factory=list)


class Recorder:
    """Formats, locates and remembers everything drawn for one document."""

    def __init__(self, doc_id: str, doc: DocModel, style: fmt.Style = fmt.PLAIN) -> None:
        self.doc_id = doc_id
        self.doc = doc
        self.style = style
        self._leaves = leaf_index(doc)
        self.drawn: dict[str, Drawn] = {}
        self.strings: list[dict[str, Any]] = []
        self.hidden: list[dict[str, Any]] = []

    def leaf(self, path: str) -> tuple[Any, Leaf]:
        """The value and leaf marker at `path`; a bad path is a renderer bug."""
        try:
            return self._leaves[path]
        except KeyError:
            raise LayoutError(f"{self.doc_id}: no leaf at path {path!r}") from None

    def text_of(self, path: str, style: fmt.Style | None = None) -> str | None:
        """The string to draw for the leaf at `path`, or None when its value is null."""
        value, leaf = self.leaf(path)
        if value is None:
            return None
        return fmt.render(value, leaf, style or self.style)

    def place(self, path: str, rendered_as: str, location: Location) -> None:
        """Record that the value at `path` was drawn as `rendered_as` at `location`."""
        value, _ = self.leaf(path)
        if value is None:
            raise LayoutError(f"{self.doc_id}: {path} is null but was drawn")
        drawn = self.drawn.get(path)
        if drawn is None:
            self.drawn[path] = Drawn(rendered_as, [location])
        elif drawn.rendered_as != rendered_as:
            raise LayoutError(
                f"{self.doc_id}: {path} drawn as {drawn.rendered_as!r} and {rendered_as!r}"
            )
        else:
            drawn.locations.append(location)

    def visible(self, text: str, page: int) -> None:
        if text.strip():
            self.strings.append({"text": text, "page": page})

    def invisible(self, text: str, page: int) -> None:
        if text.strip():
            self.hidden.append({"text": text, "page": page})

    # --- artifacts --------------------------------------------------------------------------

    def truth(self, omits: frozenset[str]) -> dict[str, Any]:
        """The document truth: the model with undrawn, declared-omitted leaves set to null."""
        data = self.doc.model_dump(mode="json")
        missing: list[str] = []
        for path, (value, _) in self._leaves.items():
            if value is None or path in self.drawn:
                continue
            if path_pattern(path) in omits:
                set_path(data, path, None)
            else:
                missing.append(path)
        if missing:
            raise LayoutError(
                f"{self.doc_id}: {len(missing)} value(s) were never drawn, first {missing[0]}"
            )
        unknown = sorted(omits - leaf_patterns(type(self.doc)))
        if unknown:
            raise LayoutError(f"{self.doc_id}: omission {unknown[0]!r} matches no leaf")
        return data

    def field_truth(self) -> list[dict[str, Any]]:
        """One entry per drawn non-null leaf, in model order."""
        fields = []
        for path, (value, leaf) in self._leaves.items():
            drawn = self.drawn.get(path)
            if drawn is None:
                continue
            fields.append({
                "path": path,
                "value": value,
                "kind": leaf.kind,
                "rendered_as": drawn.rendered_as,
                "locations": drawn.locations,
            })
        return fields
