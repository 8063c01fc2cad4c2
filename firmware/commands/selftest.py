"""`arcana-table selftest --profile P [--emulated]`: check every reader, display and button.

Prints one PASS/FAIL line per part on stdout (prompts go to stderr) and exits 0 when every
part works, 1 on any fault, 2 when the profile or the arguments are wrong. With
`--emulated` the table is built on emulated buses and an emulated finger presses each
button; `--unplug PART:ROLE` takes a part away first, to see how a fault is reported.
"""

from __future__ import annotations

import argparse
import sys

from firmware.commands.refusal import seconds

PARTS = ("reader", "display", "button")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        default="full-table",
        help="a shipped profile (full-table, minimal) or a profile TOML file (default full-table)",
    )
    parser.add_argument(
        "--emulated",
        action="store_true",
        help="build the table on emulated hardware; an emulated finger presses the buttons",
    )
    parser.add_argument(
        "--button-timeout",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="how long to wait for each button (default 10, or 1 when emulated)",
    )
    parser.add_argument(
        "--unplug",
        action="append",
        default=[],
        metavar="PART:ROLE",
        help="with --emulated: take away reader:ROLE, display:ROLE or button:ROLE first",
    )


def run(args: argparse.Namespace) -> int:
    from firmware.commands import open_table, table_buses
    from hardware.profile import ProfileError, load_profile
    from hardware.selftest import run_selftest

    try:
        profile = load_profile(args.profile)
    except ProfileError as err:
        print(err, file=sys.stderr)
        return 2
    buses = table_buses(profile, "selftest", emulated=args.emulated)
    if buses is None:
        return 2
    emulated = buses == "emulated"
    try:
        unplug = _unplug_list(args.unplug, emulated, profile)
    except ValueError as err:
        print(f"arcana-table selftest: {err}", file=sys.stderr)
        return 2
    table = open_table(profile, "selftest", buses)
    if table is None:
        return 1
    with table:
        skipped = _take_away(table, unplug)
        finger = None
        if emulated:

            def finger(role: str) -> None:
                if role not in skipped:
                    table.press(role)

        timeout = args.button_timeout or (1.0 if emulated else 10.0)
        report = run_selftest(
            table,
            button_timeout_s=timeout,
            prompt=lambda text: print(f"-> {text}", file=sys.stderr, flush=True),
            finger=finger,
        )
    print(report.text())
    return 0 if report.ok else 1


def _unplug_list(items: list[str], emulated: bool, profile) -> list[tuple[str, str]]:
    if items and not emulated:
        raise ValueError("--unplug works only with --emulated")
    roles = {
        "reader": [r.role for r in profile.readers],
        "display": [d.role for d in profile.displays],
        "button": [b.role for b in profile.buttons],
    }
    found = []
    for item in items:
        part, _, role = item.partition(":")
        if part not in PARTS:
            raise ValueError(f"--unplug {item}: write reader:ROLE, display:ROLE or button:ROLE")
        if role not in roles[part]:
            known = ", ".join(roles[part]) or "none"
            raise ValueError(f"--unplug {item}: the profile has no {part} {role!r} ({known})")
        spec = next((d for d in profile.displays if d.role == role), None)
        if part == "display" and spec.interface != "i2c":
            raise ValueError(f"--unplug {item}: an SPI display cannot tell it is gone")
        found.append((part, role))
    return found


def _take_away(table, unplug: list[tuple[str, str]]) -> set[str]:
    """Unplug readers and displays; return the buttons the finger must leave alone."""
    buttons = set()
    for part, role in unplug:
        if part == "reader":
            table.pads[role].fail("unplugged")
        elif part == "display":
            table.unplug_display(role)
        else:
            buttons.add(role)
    return buttons
