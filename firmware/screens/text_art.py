"""Screens as text, for a terminal (the demo) and for readable test failures.

>>> from PIL import Image
>>> print(text_art(Image.new("1", (4, 2), 1), style="hash"))
####
####
"""

from __future__ import annotations

from PIL import Image

# (upper pixel lit, lower pixel lit) -> one character covering both
HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def text_art(image: Image.Image, style: str = "half", frame: bool = False) -> str:
    """The image as lines of text: "half" packs two pixel rows into one line of Unicode half
    blocks (a 128x64 screen is 32 lines of 128 characters); "hash" gives one line per pixel
    row with '#' for a lit pixel and '.' for a dark one. `frame` draws a border around it.
    """
    if style not in ("half", "hash"):
        raise ValueError(f"text art style must be 'half' or 'hash', not {style!r}")
    bitmap = image.convert("1")
    width, height = bitmap.size
    pixels = bitmap.load()

    def lit(x: int, y: int) -> bool:
        return y < height and bool(pixels[x, y])

    if style == "hash":
        lines = ["".join("#" if lit(x, y) else "." for x in range(width)) for y in range(height)]
    else:
        lines = [
            "".join(HALF_BLOCKS[lit(x, y), lit(x, y + 1)] for x in range(width))
            for y in range(0, height, 2)
        ]
    if frame:
        lines = ["┌" + "─" * width + "┐", *(f"│{line}│" for line in lines), "└" + "─" * width + "┘"]
    return "\n".join(lines)


def diff_art(expected: Image.Image, actual: Image.Image) -> str:
    """Where two screens differ, one character per pixel inside the box around the
    differences: '#' lit in both, '.' dark in both, '+' lit only in actual, '-' lit only in
    expected. Empty when the images are equal.
    """
    if expected.size != actual.size:
        return f"sizes differ: expected {expected.size}, actual {actual.size}"
    old, new = expected.convert("1").load(), actual.convert("1").load()
    width, height = expected.size
    changed = [
        (x, y) for y in range(height) for x in range(width) if bool(old[x, y]) != bool(new[x, y])
    ]
    if not changed:
        return ""
    left, right = min(x for x, _ in changed), max(x for x, _ in changed)
    top, bottom = min(y for _, y in changed), max(y for _, y in changed)
    marks = {(True, True): "#", (False, False): ".", (False, True): "+", (True, False): "-"}
    rows = [
        "".join(marks[bool(old[x, y]), bool(new[x, y])] for x in range(left, right + 1))
        for y in range(top, bottom + 1)
    ]
    header = f"{len(changed)} pixels differ in x {left}..{right}, y {top}..{bottom}:"
    return "\n".join([header, *rows])
