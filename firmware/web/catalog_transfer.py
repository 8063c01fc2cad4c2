"""The owner's catalog file in and out of the web app: TOML as it is, CSV for spreadsheets.

    data = read_catalog(path)                  # the catalog object (a dict), {} for no file
    to_csv(data)                               # one row a card, guild and the catalog's name
    from_csv(Path("my-copy.csv").read_bytes()) # the same object back (CSV_COLUMNS below)
    import_catalog(path, "csv", raw, strict=False)   # checked, then written atomically

An import is read whole and checked by the catalog checker (`engine.arcana.catalog`) before
anything is written: any problem of an entry (a wrong value, an unknown key, a duplicate id)
refuses it with the checker's sentences and leaves the file as it was. What a catalog still
being entered lacks (12 cards a guild, enough market cards, the game-end card) is only
reported, unless `strict` (the file is the one the table plays, which must load). A TOML
upload is written as sent (the owner's comments and order kept); a CSV upload is written as
TOML by `to_toml`. It is written by the catalog form's writer
(`firmware.web.catalog_save.write_catalog_text`: atomic, in turn with the form's saves).
"""

from __future__ import annotations

import codecs
import csv
import io
import tomllib
from pathlib import Path
from typing import Any

from engine.arcana.catalog import ARCANA
from engine.arcana.names import LANGUAGES
from firmware.enrollment_csv import CsvProblem, read_rows
from firmware.errors import FirmwareError
from firmware.web.catalog_checks import check_entries
from firmware.web.catalog_save import CatalogSaveError, write_catalog_text
from firmware.web.sentences import said

FILE = "catalog.toml"  # in the state directory, as the catalog form writes it
MAX_UPLOAD = 47 * 1024  # bytes: in base64, with its JSON around it, under guard.MAX_BODY
MAX_PROBLEMS = 20  # sentences listed; the rest are counted
NAME_COLUMNS = tuple(f"name_{code}" for code in LANGUAGES)  # a card's `names`, a language each
CSV_COLUMNS = (
    "kind",
    "id",
    "name",
    *NAME_COLUMNS,
    "guild",
    "main",
    "fief",
    "vp",
    *ARCANA,
    "effect",
    "count",
    "tie_arcanum",
)
NUMBER_COLUMNS = frozenset(("vp", "count", *ARCANA))
CARD_ORDER = (
    "id", "kind", "guild", "main", "fief", "name", "names", "vp", "effect", "count", "arcana",
)  # fmt: skip
GUILD_COLUMNS = ("id", "name", "tie_arcanum")


class TransferRefused(FirmwareError, ValueError):
    """An import or export that did not happen: every sentence in `problems`; nothing changed."""

    def __init__(self, problems: list[str], status: int = 422) -> None:
        shown = problems[:MAX_PROBLEMS]
        if len(problems) > MAX_PROBLEMS:
            shown.append(said("more_problems", n=len(problems) - MAX_PROBLEMS))
        super().__init__("\n".join(shown))
        self.problems = shown
        self.status = status
        self.message = "; ".join(shown)


def same_file(one: Path, other: Path) -> bool:
    """Do two paths name one file (the catalog the table plays, the one the web app writes)?"""
    try:
        return one.resolve() == other.resolve()
    except OSError:
        return False


def is_file_name(source: str) -> bool:
    """As `engine.arcana.load_catalog` tells a file from a shipped name."""
    return "/" in source or "\\" in source or source.endswith(".toml")


# -- reading ----------------------------------------------------------------------------------
def read_catalog(path: Path) -> dict[str, Any]:
    """The catalog object in the file ({} when there is no file yet); TransferRefused when
    it cannot be read as TOML."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as err:
        raise TransferRefused(
            [said("file_unreadable", path=str(path), error=err.strerror)], 500
        ) from None
    return parse_toml(raw, path.name)


def parse_toml(raw: bytes, label: str) -> dict[str, Any]:
    """A TOML file's table, or TransferRefused with the sentence `catalog check` would say."""
    if raw.startswith(codecs.BOM_UTF8):  # Windows editors add one; TOML is UTF-8 anyway
        raw = raw[len(codecs.BOM_UTF8) :]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        byte = raw[err.start : err.start + 1].hex()
        raise TransferRefused([said("not_utf8", label=label, byte=byte, line=line)]) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:  # duplicate keys too: "Cannot overwrite a value"
        raise TransferRefused([said("not_toml", label=label, error=str(err))]) from None
    except RecursionError:
        raise TransferRefused([said("toml_too_deep", label=label)]) from None
    except ValueError:  # an integer of over 4,300 digits
        raise TransferRefused([said("toml_long_number", label=label)]) from None


# -- CSV --------------------------------------------------------------------------------------
def to_csv(data: dict[str, Any]) -> str:
    """The catalog object as CSV: a `catalog` row (its name), a `guild` row each, a row a
    card, under the header CSV_COLUMNS. An empty cell is a key the entry does not have."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)

    def row(cells: dict[str, Any]) -> list[str]:
        return ["" if cells.get(column) is None else str(cells[column]) for column in CSV_COLUMNS]

    if "name" in data:
        writer.writerow(row({"kind": "catalog", "name": data["name"]}))
    for gid, guild in (data.get("guilds") or {}).items():
        writer.writerow(row({**guild, **_name_cells(guild), "kind": "guild", "id": gid}))
    for card in data.get("cards") or []:
        writer.writerow(row({**card, **(card.get("arcana") or {}), **_name_cells(card)}))
    return out.getvalue()


def _name_cells(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry's `names` table as its name_xx cells (and no `names` or `arcana` cell)."""
    names = entry.get("names")
    cells: dict[str, Any] = {"names": None, "arcana": None}
    if isinstance(names, dict):
        cells.update({f"name_{code}": name for code, name in names.items()})
    return cells


def _names_from(entry: dict[str, Any]) -> None:
    """The name_xx cells of a row back into its `names` table (in the languages' order)."""
    names = {column[5:]: entry.pop(column) for column in NAME_COLUMNS if column in entry}
    if names:
        entry["names"] = names


def from_csv(raw: bytes | str, label: str = "upload") -> dict[str, Any]:
    """The catalog object a CSV file holds (`to_csv`'s layout, columns in any order).

    TransferRefused names the line for what is not that layout: no header, a column unknown
    or twice, a row longer than the header, a guild or the catalog's name twice. What the
    entries say is left to the catalog checker (a number column's cell that is not a whole
    number stays text, and the checker says so)."""
    try:
        rows = read_rows(raw)
    except CsvProblem as err:
        problem = said("csv_problem", label=label, line=err.line, reason=err.reason)
        raise TransferRefused([problem]) from None
    if not rows:
        raise TransferRefused([said("csv_empty", label=label)])
    header_line, header = rows[0]
    columns = [cell.strip().lower() for cell in header]
    problems = _header_problems(columns, header_line, label)
    if problems:
        raise TransferRefused(problems)
    data: dict[str, Any] = {}
    guilds: dict[str, dict[str, Any]] = {}
    guild_lines: dict[str, int] = {}
    cards: list[dict[str, Any]] = []
    for number, cells in rows[1:]:
        if len(cells) > len(columns):
            problems.append(
                said(
                    "csv_row_too_long",
                    label=label,
                    line=number,
                    fields=len(cells),
                    columns=len(columns),
                )
            )
            continue
        entry = {
            column: _cell(column, cell)
            for column, cell in zip(columns, cells, strict=False)
            if cell.strip()
        }
        if not entry:
            continue  # a row of empty cells, as spreadsheets save below the last one
        kind = entry.pop("kind", None)
        _names_from(entry)
        if kind == "catalog":
            if "name" in data:
                problems.append(said("csv_second_catalog", label=label, line=number))
            data["name"] = entry.pop("name", "")
            if entry:
                keys = ", ".join(entry)
                problems.append(said("csv_catalog_row", label=label, line=number, keys=keys))
        elif kind == "guild":
            gid = str(entry.pop("id", ""))
            if not gid:
                problems.append(said("csv_guild_needs_id", label=label, line=number))
            elif gid in guilds:
                other = guild_lines[gid]
                problems.append(
                    said("csv_guild_twice", label=label, line=number, guild=gid, other=other)
                )
            else:
                guilds[gid], guild_lines[gid] = entry, number
        else:
            cards.append(_card(entry, kind))
    if problems:
        raise TransferRefused(problems)
    if guilds:
        data["guilds"] = guilds
    if cards:
        data["cards"] = cards
    return data


def _header_problems(columns: list[str], line: int, label: str) -> list[str]:
    problems = []
    for index, column in enumerate(columns):
        if column not in CSV_COLUMNS:
            known = ", ".join(CSV_COLUMNS)
            problems.append(
                said(
                    "csv_unknown_column", label=label, line=line, column=repr(column), columns=known
                )
            )
        elif column in columns[:index]:
            problems.append(said("csv_column_twice", label=label, line=line, column=repr(column)))
    for needed in ("kind", "id"):
        if needed not in columns:
            problems.append(said("csv_no_column", label=label, line=line, column=needed))
    return problems


def _cell(column: str, cell: str) -> Any:
    text = cell.strip()
    if column in NUMBER_COLUMNS and text.lstrip("-").isdigit() and len(text) <= 19:
        return int(text)
    return cell if column not in ("kind", "id") else text


def _card(entry: dict[str, Any], kind: Any) -> dict[str, Any]:
    card = {key: entry[key] for key in CARD_ORDER if key in entry}
    if kind is not None:
        card["kind"] = kind
    arcana = {arcanum: entry[arcanum] for arcanum in ARCANA if arcanum in entry}
    if arcana:
        card["arcana"] = arcana
    card.update({k: v for k, v in entry.items() if k not in card and k not in ARCANA})
    return card


# -- TOML -------------------------------------------------------------------------------------
def to_toml(data: dict[str, Any]) -> str:
    """A catalog object as TOML in the template's layout (docs/catalog-template.toml)."""
    lines = []
    if "name" in data:
        lines += [f"name = {_value(data['name'])}", ""]
    for gid, guild in (data.get("guilds") or {}).items():
        lines.append(f"[guilds.{_key(gid)}]")
        lines += [f"{_key(k)} = {_value(v)}" for k, v in guild.items()]
        lines.append("")
    for card in data.get("cards") or []:
        lines.append("[[cards]]")
        ordered = sorted(card, key=lambda k: CARD_ORDER.index(k) if k in CARD_ORDER else 99)
        lines += [f"{_key(k)} = {_value(card[k])}" for k in ordered]
        lines.append("")
    return "\n".join(lines)


def _key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
    return key if bare else _value(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise ValueError(f"a catalog holds text, whole numbers and tables, not {value!r}")


def _string(text: str) -> str:
    out = ['"']
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


# -- importing --------------------------------------------------------------------------------
def import_catalog(path: Path, fmt: str, raw: bytes, strict: bool) -> dict[str, Any]:
    """Check an uploaded file (`fmt` "toml" or "csv") and write it over the catalog file.

    Returns what the progress page says of it: the cards imported and what the catalog still
    lacks. TransferRefused (nothing written) for a file too large, not text in its encoding,
    not TOML/CSV, with any problem of an entry, or (`strict`) not complete."""
    if len(raw) > MAX_UPLOAD:
        raise TransferRefused([said("upload_too_big", size=len(raw), most=MAX_UPLOAD)], 413)
    if fmt == "toml":
        data = parse_toml(raw, "upload")
        text = raw.decode("utf-8-sig")
    elif fmt == "csv":
        data = from_csv(raw)
        text = to_toml(data)
        if parse_toml(text.encode(), "converted") != data:  # the writer's promise, kept here
            raise TransferRefused([said("csv_not_same")], 500)
    else:
        raise TransferRefused([said("upload_format", format=fmt)], 400)
    problems, lacking = check_entries(data, "upload")
    if problems:
        raise TransferRefused(problems)
    if strict and lacking:
        raise TransferRefused([said("plays_must_pass", file=path.name), *lacking])
    try:
        write_catalog_text(path, text)
    except CatalogSaveError as err:
        raise TransferRefused(err.problems, 500) from None
    return {"cards": len(data.get("cards") or []), "file": str(path), "lacking": lacking}


def decode_upload(body: dict[str, Any]) -> bytes:
    """The file bytes of an upload body `{"data": base64}`."""
    import base64
    import binascii

    data = body.get("data")
    if not isinstance(data, str):
        raise TransferRefused([said("upload_needs_data")], 400)
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise TransferRefused([said("upload_not_base64")], 400) from None
