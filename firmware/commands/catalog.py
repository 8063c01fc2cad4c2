"""`arcana-table catalog check FILE`: check an Arcana card catalog (TOML) before playing.

Prints `ok: N cards` and exits 0, or prints every problem (each naming the card and the
field) on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    jobs = parser.add_subparsers(dest="job", metavar="JOB", required=True)
    check = jobs.add_parser("check", help="check a catalog file and list every problem")
    check.add_argument("file", help="a catalog TOML file (see docs/catalog-template.toml)")


def run(args: argparse.Namespace) -> int:
    from engine.arcana.catalog import CatalogError, load_catalog

    try:
        catalog = load_catalog(args.file if "/" in args.file else f"./{args.file}")
    except CatalogError as err:
        print(f"{args.file}: {len(err.problems)} problem(s)", file=sys.stderr)
        for problem in err.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    print(f"ok: {len(catalog.cards)} cards")
    return 0
