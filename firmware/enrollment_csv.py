"""Reading a bindings CSV as spreadsheets save it: the text, then `(line, uid, card)` rows.

    rows = read_rows(Path("tags.csv").read_bytes())   # [(2, "04a1...", "blades_agent_3"), ...]

Excel's "CSV UTF-8" starts with a byte-order mark, its "Unicode text" is UTF-16 (with a
mark), and its plain "CSV" on Windows is cp1252: all three are read. Anything that is not
text in any of them, a line with a NUL, or a field longer than any UID or card id raises
`CsvProblem` naming the line; nothing is half-read.
"""

from __future__ import annotations

import codecs
import csv
import io

from firmware.errors import FirmwareError, Said

CSV_FIELDS = ("uid", "card")
MAX_FIELD = 200  # characters: a 10-byte UID with separators is 29, card ids are short words


class CsvProblem(FirmwareError, ValueError):
    """One problem of the file, at a line (1-based); Enrollment makes it an EnrollError.
    `reason` is a `Said` (the web pages say it in their language)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line, self.reason = line, reason


def decode(data: bytes) -> str:
    """The file's text: UTF-8 (with or without BOM), UTF-16 with BOM, else cp1252."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _decode(data, "utf-16", 0)
    if data.startswith(codecs.BOM_UTF8):
        return _decode(data, "utf-8", len(codecs.BOM_UTF8))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return _decode(data, "cp1252", 0)


def _decode(data: bytes, encoding: str, skip: int) -> str:
    try:
        return data[skip:].decode(encoding)
    except UnicodeDecodeError as err:
        at = skip + err.start
        newline = b"\n\x00" if data.startswith(codecs.BOM_UTF16_LE) else b"\x00\n"
        line = data[:at].count(newline if encoding == "utf-16" else b"\n") + 1
        byte = data[at : at + 1].hex()
        if encoding == "cp1252":
            reason = Said(
                f"byte 0x{byte} is not text in UTF-8 or cp1252",
                "csv_not_text_either",
                {"byte": byte},
            )
        else:
            label = {"utf-8": "UTF-8", "utf-16": "UTF-16"}[encoding]
            values = {"byte": byte, "encoding": label}
            reason = Said(f"byte 0x{byte} is not text in {label}", "csv_not_text", values)
        raise CsvProblem(line, reason) from None


def read_rows(data: bytes | str) -> list[tuple[int, list[str]]]:
    """(line number, fields) of every non-empty row, the `uid,card` header left out."""
    text = decode(data) if isinstance(data, bytes) else data
    if "\x00" in text:
        nul = Said("a NUL byte is not text", "csv_nul")
        raise CsvProblem(text[: text.index("\x00")].count("\n") + 1, nul)
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            number, start = start, reader.line_num + 1
            if not row or (number == 1 and [c.strip().lower() for c in row] == list(CSV_FIELDS)):
                continue
            for field in row:
                if len(field) > MAX_FIELD:
                    values = {"length": len(field), "most": MAX_FIELD}
                    message = f"a field of {len(field)} characters (at most {MAX_FIELD})"
                    raise CsvProblem(number, Said(message, "csv_long_field", values))
            rows.append((number, row))
    except csv.Error as err:
        not_csv = Said(f"not CSV ({err})", "csv_not_csv", {"error": str(err)})
        raise CsvProblem(start, not_csv) from None
    return rows
