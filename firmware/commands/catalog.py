"""`arcana-table catalog JOB`: Arcana card catalogs (TOML) before they reach the table.

arcana-table catalog check FILE
    prints `ok: N cards` and exits 0, or every problem on stderr, one line each naming the
    file and the place (`my.toml: [guilds.thieves] tie_arcanumm: unknown key (did you mean
    tie_arcanum?)`, `my.toml: card "m_agent_07": ...`), and exits 2. `--language de` (or fa)
    says the problems as the owner's pages of a table in that language do; English by default.
arcana-table catalog playtest [FILE] --policy sensible --games 100
    plays whole games with the catalog (default: the shipped sample) and prints how many
    rounds they took, as JSON: is the deck tuned for games of sensible length?
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from typing import Any

from firmware.commands.refusal import EXIT_REFUSED, printable, whole, whole_list
from firmware.language import DEFAULT, catalog_problem, codes, using


def configure(parser: argparse.ArgumentParser) -> None:
    jobs = parser.add_subparsers(dest="job", metavar="JOB", required=True)
    check = jobs.add_parser("check", help="check a catalog file and list every problem")
    check.add_argument("file", help="a catalog TOML file (see docs/catalog-template.toml)")
    check.add_argument(
        "--language", choices=codes(), default=DEFAULT, help="the problems' language (default en)"
    )
    playtest = jobs.add_parser("playtest", help="rounds per game of bot games with a catalog")
    playtest.add_argument("file", nargs="?", default="sample", help="catalog file or shipped name")
    playtest.add_argument("--policy", choices=("sensible", "random"), default="sensible")
    playtest.add_argument(
        "--games", type=whole(1), default=100, help="games per player count (default 100)"
    )
    playtest.add_argument(
        "--players", type=whole_list(2, 4), default=[2, 3, 4], help="player counts, e.g. 2,3,4"
    )
    playtest.add_argument("--variant", choices=("basic", "advanced", "mixed"), default="mixed")
    playtest.add_argument("--seed", type=int, default=1)


def _catalog_ref(name: str) -> str:
    # A bare word names a shipped catalog; anything else is a path.
    return name if name.isidentifier() else (name if "/" in name else f"./{name}")


def _terminal(line: str) -> str:
    """A line for the terminal (`printable`), keeping Persian's zero-width non-joiner inside
    words (it is part of the spelling) and dropping the right-to-left mark that leads a
    sentence for the pages (a terminal line has no paragraph direction to set)."""
    return "\u200c".join(printable(part) for part in line.replace("\u200f", "").split("\u200c"))


def run(args: argparse.Namespace) -> int:
    from engine.arcana.catalog import CatalogError, load_catalog

    try:
        catalog = load_catalog(_catalog_ref(args.file))
    except CatalogError as err:
        # one line per problem, each naming the file and the place: `FILE: [section] key: ...`
        print(printable(f"{args.file}: {len(err.problems)} problem(s)"), file=sys.stderr)
        with using(getattr(args, "language", DEFAULT)):  # playtest has no --language
            for problem in err.problems:
                print(_terminal(f"{args.file}: {catalog_problem(problem)}"), file=sys.stderr)
        return EXIT_REFUSED
    if args.job == "check":
        print(f"ok: {len(catalog.cards)} cards")
        return 0
    print(json.dumps(playtest(catalog, args), indent=2))
    return 0


def playtest(catalog: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Rounds per game for each player count (bots: `engine.arcana.random_playout`)."""
    from engine.arcana import random_playout

    rng = random.Random(args.seed)
    variant = None if args.variant == "mixed" else args.variant
    out: dict[str, Any] = {
        "catalog": catalog.name,
        "policy": args.policy,
        "variant": args.variant,
        "seed": args.seed,
    }
    for players in args.players:
        rounds: Counter[int] = Counter()
        unfinished = 0
        for _ in range(args.games):
            game = random_playout(rng, players, variant, args.policy, catalog=catalog)
            rounds[game["rounds"]] += 1
            unfinished += not game["finished"]
        values = sorted(rounds.elements())
        out[f"{players}_players"] = {
            "games": args.games,
            "unfinished": unfinished,
            "median_rounds": statistics.median(values),
            "p10_p90": [values[len(values) // 10], values[len(values) * 9 // 10]],
            "rounds_per_game": {str(k): v for k, v in sorted(rounds.items())},
        }
    return out
