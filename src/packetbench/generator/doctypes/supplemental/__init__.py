"""Supplemental applications (PDF), one document type per class of business: trucking,
contractors, restaurant and habitational. The world's class of business and lines decide which
a packet carries (see generator.world.supplements)."""

from collections.abc import Callable

from packetbench.generator.doctypes.base import DocType, Variant, register
from packetbench.generator.doctypes.supplemental import build, pdf
from packetbench.generator.doctypes.supplemental.model import (
    ContractorsSupplement,
    HabitationalSupplement,
    RestaurantSupplement,
    TruckingSupplement,
)
from packetbench.generator.world.models import World


def _has(variant: str) -> Callable[[World], bool]:
    """Whether the world holds the facts of one supplement variant."""

    def carried(world: World) -> bool:
        return world.supplements is not None and getattr(world.supplements, variant) is not None

    return carried


SUPPLEMENTS = tuple(
    register(
        DocType(
            name=f"supplemental_{variant}",
            title=title,
            model=model,
            build=builder,
            variants=(Variant(f"supplemental_{variant}", "pdf", renderer),),
            section="application",
            lines=lines,
            applies=_has(variant),
        )
    )
    for variant, title, model, builder, renderer, lines in (
        (
            "trucking",
            "Motor Carrier Supplemental Application",
            TruckingSupplement,
            build.build_trucking,
            pdf.render_trucking,
            frozenset({"auto"}),
        ),
        (
            "contractors",
            "Contractors Supplemental Application",
            ContractorsSupplement,
            build.build_contractors,
            pdf.render_contractors,
            frozenset({"gl"}),
        ),
        (
            "restaurant",
            "Restaurant Supplemental Application",
            RestaurantSupplement,
            build.build_restaurant,
            pdf.render_restaurant,
            frozenset(),
        ),
        (
            "habitational",
            "Habitational Supplemental Application",
            HabitationalSupplement,
            build.build_habitational,
            pdf.render_habitational,
            frozenset(),
        ),
    )
)
