"""The one line a command prints when it refuses its input (and exit status 2).

    return refuse(f"line 3: unknown card {card!r}")

Whatever the input held, the line stays one printable line: newlines, terminal escapes and
lone surrogates from a file are shown escaped, so a hostile name cannot forge output or make
printing fail.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import TextIO

EXIT_REFUSED = 2


LONGEST = 1000  # characters of one refusal line: a megabyte card id is not worth printing


def printable(text: str) -> str:
    """`text` with every character that is not printable shown as its escape (`\\n`, `\\x1b`),
    cut to LONGEST characters."""
    if not text.isprintable():
        text = "".join(
            c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode()
            for c in text
        )
    return text if len(text) <= LONGEST else text[: LONGEST - 3] + "..."


def refuse(message: str, stream: TextIO | None = None) -> int:
    """Print `message` as one line on stderr; return the exit status of refused input."""
    print(printable(message), file=stream or sys.stderr)
    return EXIT_REFUSED


def seconds(text: str) -> float:
    """An argument type: a finite number of seconds above 0 (`nan`, `inf`, `-1` refused)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argument type: a whole number from `low` (to `high`)."""
    span = f"from {low}" if high is None else f"from {low} to {high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number {span}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its own messages
    return parse


def whole_list(low: int, high: int) -> Callable[[str], list[int]]:
    """An argument type: comma-separated whole numbers from `low` to `high` (`2,3,4`)."""
    one = whole(low, high)

    def parse(text: str) -> list[int]:
        try:
            return [one(part) for part in text.split(",")]
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a list of whole numbers from {low} to {high}, such as 2,3,4"
            ) from None

    return parse
