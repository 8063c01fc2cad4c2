"""The words of a profile's refusals: `ProfileError` and the phrases its sentences share."""

from __future__ import annotations

import difflib
from typing import Any

from hardware.errors import HardwareError


class ProfileError(HardwareError, ValueError):
    """A profile that cannot be used; `problems` lists `(line, sentence)` pairs."""

    def __init__(self, source: str, problems: list[tuple[int | None, str]]) -> None:
        self.source = source
        self.problems = sorted(problems, key=lambda p: (p[0] or 0, p[1]))
        lines = [
            f"{source} line {line}: {text}" if line else f"{source}: {text}"
            for line, text in self.problems
        ]
        super().__init__("\n".join(lines))


def closest(key: str, known: set[str] | list[str]) -> str | None:
    """The known key a typo most likely meant ("absense_s": "absence_s"), or None."""
    close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
    return close[0] if close else None


def expected(key: str, known: set[str]) -> str:
    """ "did you mean absence_s?" for a typo, else every key that may be there."""
    close = closest(key, known)
    return f"did you mean {close!r}?" if close else f"expected one of {', '.join(sorted(known))}"


def shown(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


KIND_WORDS = {
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    str: "text",
    list: "a list",
}
