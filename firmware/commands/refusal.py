"""The one line a command prints when it refuses its input (and exit status 2).

    return refuse(f"line 3: unknown card {card!r}")

Whatever the input held, the line stays one printable line: newlines, terminal escapes and
lone surrogates from a file are shown escaped, so a hostile name cannot forge output or make
printing fail.
"""

from __future__ import annotations

import sys
from typing import TextIO

EXIT_REFUSED = 2


def printable(text: str) -> str:
    """`text` with every character that is not printable shown as its escape (`\\n`, `\\x1b`)."""
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )


def refuse(message: str, stream: TextIO | None = None) -> int:
    """Print `message` as one line on stderr; return the exit status of refused input."""
    print(printable(message), file=stream or sys.stderr)
    return EXIT_REFUSED
