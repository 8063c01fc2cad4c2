"""Pages: the SSD1306/SH1106 memory layout, and the smallest windows that cover a change.

Both chips store a 1-bit screen as pages of 8 pixel rows; each byte is one column of a page,
its least significant bit the top row. A frame here is a list of pages, each `width` bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image


@dataclass(frozen=True)
class Window:
    """Pages `first_page..last_page` and columns `first_column..last_column`, inclusive."""

    first_page: int
    last_page: int
    first_column: int
    last_column: int

    @property
    def pages(self) -> range:
        return range(self.first_page, self.last_page + 1)

    @property
    def columns(self) -> int:
        return self.last_column - self.first_column + 1

    @property
    def data_bytes(self) -> int:
        return len(self.pages) * self.columns


def image_to_pages(image: Image.Image) -> list[bytes]:
    """Pack a 1-bit image into pages (one `bytes` of `width` columns per 8 rows).

    >>> image_to_pages(Image.new("1", (2, 8), 1))
    [b'\\xff\\xff']
    """
    count = image.height // 8
    # Rotating by 270° makes each screen column one row of bytes, bottom page first, with the
    # top pixel of each page in the least significant bit: the chips' own byte layout.
    columns = image.convert("1").transpose(Image.Transpose.ROTATE_270).tobytes()
    return [columns[count - 1 - page :: count] for page in range(count)]


def pages_to_image(pages: Sequence[bytes | bytearray], width: int) -> Image.Image:
    """Unpack pages (each at least `width` bytes; extra columns ignored) into a 1-bit image."""
    count = len(pages)
    columns = bytearray(width * count)
    for page, data in enumerate(pages):
        columns[count - 1 - page :: count] = bytes(data[:width])
    rotated = Image.frombytes("1", (count * 8, width), bytes(columns))
    return rotated.transpose(Image.Transpose.ROTATE_90)


def changed_spans(before: Sequence[bytes], after: Sequence[bytes]) -> dict[int, tuple[int, int]]:
    """For each page that differs, the first and last changed column (inclusive)."""
    spans: dict[int, tuple[int, int]] = {}
    for page, (old, new) in enumerate(zip(before, after, strict=True)):
        if old == new:
            continue
        first = next(i for i in range(len(new)) if old[i] != new[i])
        last = next(i for i in range(len(new) - 1, -1, -1) if old[i] != new[i])
        spans[page] = (first, last)
    return spans


def bounding_window(spans: dict[int, tuple[int, int]]) -> Window | None:
    """The one rectangle of pages and columns that covers every changed span."""
    if not spans:
        return None
    return Window(
        first_page=min(spans),
        last_page=max(spans),
        first_column=min(first for first, _ in spans.values()),
        last_column=max(last for _, last in spans.values()),
    )
