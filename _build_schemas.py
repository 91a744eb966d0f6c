"""Write src/packetbench/schemas/<schema>.schema.json from the document models.

    python _build_schemas.py           # write (and remove schemas no model produces)
    python _build_schemas.py --check   # exit 1 when the committed schemas are stale

Exit 2 when the project's dependencies are not installed (so that is never read as "stale").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

try:
    from packetbench.generator.schema_files import stale, write
except ImportError as error:  # run outside the project's environment: say so, not "stale"
    print(
        f"_build_schemas.py: error: packetbench's dependencies are not importable "
        f"({error}); install them first: pip install -e .",
        file=sys.stderr,
    )
    sys.exit(2)

SCHEMAS = Path(__file__).resolve().parent / "src" / "packetbench" / "schemas"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when schemas are stale")
    parser.add_argument("--out", type=Path, default=SCHEMAS, help="schema folder")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale(args.out)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print("schemas are stale: run `python _build_schemas.py`", file=sys.stderr)
            return 1
        print(f"schemas in {args.out} are current")
        return 0
    for path in write(args.out):
        print(path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
