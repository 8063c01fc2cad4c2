"""`arcana-table bench TARGET ...`: performance figures as one JSON object on stdout.

Targets live in `firmware.benchmarks.<target>`; each module defines `HELP`,
`configure(parser)` and `run(args) -> dict`. Figures come from here, never from timing
asserts in tests.
"""

from __future__ import annotations

import argparse
import json
import sys
from types import ModuleType

from firmware.commands import optional_module

TARGETS: dict[str, str] = {
    "engine": "random playouts of a game engine (actions and games per second)",
    "hardware": "bus bytes and modelled bus time of scans and display updates",
    "companion": "tap-to-screen latency of the companion over a demo game",
    "appliance": "start-up time and resident memory of the table service",
}


def configure(parser: argparse.ArgumentParser) -> None:
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, help_text in TARGETS.items():
        sub = targets.add_parser(name, help=help_text, description=help_text)
        module = _module(name)
        if module is not None:
            module.configure(sub)


def _module(name: str) -> ModuleType | None:
    return optional_module(f"firmware.benchmarks.{name}")


def run(args: argparse.Namespace) -> int:
    module = _module(args.target)
    if module is None:
        print(f"arcana-table bench {args.target}: not implemented yet")
        return 2
    from hardware.profile import ProfileError

    try:
        figures = module.run(args)
    except ProfileError as err:  # `bench hardware --profile P`
        print(err, file=sys.stderr)
        return 2
    print(json.dumps(figures, indent=2))
    return 0
