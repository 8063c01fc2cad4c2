"""A profile's TOML text: decoded with tomllib (every refusal a `ProfileError` naming the
line where tomllib gives one), bounded in depth, and `Lines`, the line of each header and
`key =` (tomllib gives no positions)."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from hardware.profile.messages import ProfileError

MAX_DEPTH = 4  # [[readers]] -> reader -> kernel_buses -> number is 3 levels


def read_toml(text: str, source: str) -> tuple[dict[str, Any], Lines]:
    """The decoded table of `text` and where its lines are; `ProfileError` if it is no TOML
    or nested deeper than MAX_DEPTH levels."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"at line (\d+)", str(err))
        raise ProfileError(
            source, [(int(found[1]) if found else None, f"not TOML: {err}")]
        ) from None
    except RecursionError:
        raise ProfileError(source, [(None, "not TOML: nested too deeply")]) from None
    except ValueError:  # tomllib's only other refusal: an integer of over 4,300 digits
        raise ProfileError(source, [(None, "not TOML: a number far too long")]) from None
    deep = too_deep(data)
    if deep is not None:
        raise ProfileError(source, [(None, f"{deep}: nested deeper than {MAX_DEPTH} levels")])
    return data, Lines(text)


def too_deep(data: Any) -> str | None:
    """The first place nested deeper than MAX_DEPTH levels (`readers[0].cs`), or None."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, place, depth = stack.pop()
        if depth > MAX_DEPTH:
            return place
        if isinstance(value, dict):
            stack.extend((v, f"{place}.{k}".lstrip("."), depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{place}[{i}]", depth + 1) for i, v in enumerate(value))
    return None


class Lines:
    """Where things are in the TOML text: tomllib gives no positions, so we find headers
    (`[table]`, the n-th `[[readers]]`) and `key =` lines inside them."""

    HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.-]+)\s*\]\]?")

    def __init__(self, text: str) -> None:
        self.blocks: dict[tuple[str, int], tuple[int, dict[str, int]]] = {}
        counts: dict[str, int] = {}
        keys: dict[str, int] = {}
        self.blocks[("", 0)] = (1, keys)
        for number, line in enumerate(text.split("\n"), start=1):  # TOML's only line end
            header = self.HEADER.match(line)
            if header:
                section = header[1]
                index = counts.get(section, 0)
                counts[section] = index + 1
                keys = {}
                self.blocks[(section, index)] = (number, keys)
                continue
            key = re.match(r"^\s*([A-Za-z0-9_-]+)\s*=", line)
            if key and key[1] not in keys:
                keys[key[1]] = number

    def of(self, section: str, index: int = 0, key: str | None = None) -> int | None:
        block = self.blocks.get((section, index))
        if block is None:
            top = self.blocks[("", 0)][1]
            return top.get(section)
        return block[1].get(key, block[0]) if key else block[0]
