"""textlayer.fragmented_rules and textlayer.bezier_rules: every rule of the page redrawn as
short overlapping segments, or as Bezier curves that look straight (emit).
"""

from __future__ import annotations

from packetbench.generator.patterns.base import Staging, pattern
from packetbench.generator.patterns.textlayer.common import NO_SCAN, RULE_ATTACKS, _acted
from packetbench.generator.render import attack
from packetbench.generator.render.ops import CONTENT, LineOp, Op
from packetbench.generator.render.pdf import PdfDocument


def _rules(staging: Staging, curve: bool) -> bool:
    """Redraw every rule of every page as short overlapping segments, or (`curve`) as
    Bezier curves that look straight."""
    rng = staging.rng
    applied = staging.applied

    def draw(pdf: PdfDocument) -> None:
        total_rules = total_segments = 0
        for page in range(1, len(pdf.pages) + 1):
            ops = pdf.pages[page - 1]
            found = attack.rules_of(ops)
            if not found:
                continue
            drop = {index for index, _ in found}
            if curve:
                kept: list[Op] = [op for i, op in enumerate(ops) if i not in drop]
                kept.append(attack.stroked([rule for _, rule in found], curve=True))
                segments = len(found)
            else:
                kept = []
                segments = 0
                by_op: dict[int, list[attack.Rule]] = {}
                for index, rule in found:
                    by_op.setdefault(index, []).append(rule)
                for index, op in enumerate(ops):
                    if index not in drop:
                        kept.append(op)
                        continue
                    for rule in by_op[index]:
                        for x0, y0, x1, y1, width, color in attack.fragments(rule, rng):
                            kept.append(LineOp(x0, y0, x1, y1, width, color, CONTENT))
                            segments += 1
            ops[:] = kept
            total_rules += len(found)
            total_segments += segments
            applied.pages.add(page)
        applied.details.update(rules=total_rules, segments=total_segments)

    staging.after_layout(draw)
    staging.confirm(_acted(staging))
    return True


@pattern(
    "textlayer.fragmented_rules",
    "Fragmented rules",
    phase="emit",
    truth="none",
    reference="p22_fragmented_borders",
    incompatible=(*RULE_ATTACKS, *NO_SCAN),
    description="table and box borders drawn as many short overlapping segments",
)
def _fragmented_rules(staging: Staging) -> bool:
    return _rules(staging, curve=False)


@pattern(
    "textlayer.bezier_rules",
    "Bézier rules",
    phase="emit",
    truth="none",
    reference="p26_bezier_borders",
    incompatible=(*RULE_ATTACKS, *NO_SCAN),
    description="table and box borders drawn as Bézier curves that look straight",
)
def _bezier_rules(staging: Staging) -> bool:
    return _rules(staging, curve=True)
