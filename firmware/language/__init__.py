"""The languages of the table's screens: one TOML catalog per language, keyed by stable names.

    >>> from firmware.language import text, using
    >>> with using("de"):
    ...     text("status.round", round=3)
    'Runde 3'
    >>> text("status.round", round=3)
    'Round 3'

`en.toml` is the reference: every other catalog (`de.toml`, `fa.toml`, ...) has exactly its
keys, with the same `{placeholders}` (tests/firmware/test_language.py). The language of what
is being drawn is a context variable: the companion sets it for the game it shows (the game's
setup carries `language`), a test or the gallery with `using(code)`. Screen models stay plain
data; the words are chosen when they are built or drawn. Why TOML and not gettext: see
docs/languages.md.

A `[short]` table in a catalog gives hand-chosen short forms of that language's names for
boxes too narrow for them (`firmware.screens.short_forms` reads them). A `[names]` table
gives the sample catalogs' guild names in the language, a `[res_arcana_cards]` table Res
Arcana's card names by card id. An Arcana catalog of the owner's names its cards and guilds
in the languages itself (`names = { de = "..." }`), and its own names come first.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from firmware.errors import FirmwareError

HERE = Path(__file__).parent
DEFAULT = "en"
RIGHT_TO_LEFT = frozenset({"fa"})
# How numbers are written on the screens (the profile's `[table] digits`): "latin" (0-9)
# everywhere, or "persian" (۰-۹) in a right-to-left language; English and German keep 0-9.
DIGITS = ("latin", "persian")


class LanguageError(FirmwareError, ValueError):
    """A language code without a catalog, or a catalog that cannot be read."""


@dataclass(frozen=True)
class Language:
    """One catalog: `texts` by key, `short` forms by text, `name` in its own language,
    the sample guilds' `names` and Res Arcana's card names (`res_arcana_cards`) by id."""

    code: str
    name: str
    texts: dict[str, str]
    short: dict[str, tuple[str, ...]]
    names: dict[str, str]
    res_arcana_cards: dict[str, str]

    @property
    def direction(self) -> str:
        """ "rtl" for a right-to-left language (Persian), else "ltr"."""
        return "rtl" if self.code in RIGHT_TO_LEFT else "ltr"

    def text(self, key: str, /, **params: Any) -> str:
        """The sentence of `key` with its `{placeholders}` filled; an unknown key is a bug
        (KeyError), caught by the tests that render every screen in every language."""
        template = self.texts[key]
        return template.format(**params) if params else template


def codes() -> tuple[str, ...]:
    """The languages that have a catalog, English first."""
    found = sorted(path.stem for path in HERE.glob("*.toml"))
    return (DEFAULT, *(code for code in found if code != DEFAULT))


@cache
def load(code: str) -> Language:
    """The catalog of a language code ("en", "de", "fa"); LanguageError says what exists."""
    path = HERE / f"{code}.toml"
    if not code.isalpha() or not path.is_file():
        raise LanguageError(
            f"no screen texts in language {code!r} (the table has {', '.join(codes())})"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise LanguageError(f"{path.name} cannot be read: {err}") from err
    texts: dict[str, str] = {}
    _flatten(data, "", texts, skip={"language", "short", "names", "res_arcana_cards"})
    short = {name: tuple(forms) for name, forms in data.get("short", {}).items()}
    names = {str(k): str(v) for k, v in data.get("names", {}).items()}
    cards = {str(k): str(v) for k, v in data.get("res_arcana_cards", {}).items()}
    title = str(data.get("language", {}).get("name", code))
    return Language(code, title, texts, short, names, cards)


def _flatten(table: dict[str, Any], prefix: str, out: dict[str, str], skip=()) -> None:
    for key, value in table.items():
        if key in skip:
            continue
        if isinstance(value, dict):
            _flatten(value, f"{prefix}{key}.", out)
        else:
            out[f"{prefix}{key}"] = str(value)


_current: ContextVar[str] = ContextVar("language", default=DEFAULT)


def code() -> str:
    """The code of the language of what is being built or drawn now ("de")."""
    return _current.get()


def current() -> Language:
    """The language of what is being built or drawn now."""
    return load(_current.get())


_digits: ContextVar[str] = ContextVar("digits", default="latin")


def digits() -> str:
    """How the screens drawn now write numbers: "persian" (۰-۹) when asked for and the
    language reads right to left, else "latin" (0-9)."""
    return "persian" if _digits.get() == "persian" and current().direction == "rtl" else "latin"


@contextmanager
def using(code: str | None, digits: str | None = None) -> Iterator[Language]:
    """Build and draw in this language inside the block (None or "": English), with its
    numbers in `digits` ("latin" or "persian"; None: as around the block)."""
    language = load(code or DEFAULT)
    if digits is not None and digits not in DIGITS:
        raise LanguageError(f"digits are written {' or '.join(DIGITS)}, not {digits!r}")
    token = _current.set(language.code)
    style = _digits.set(digits or _digits.get())
    try:
        yield language
    finally:
        _digits.reset(style)
        _current.reset(token)


def text(key: str, /, **params: Any) -> str:
    """The sentence of `key` in the current language (see `using`)."""
    return current().text(key, **params)


def has(key: str) -> bool:
    """Whether the catalogs know `key` (English is the reference)."""
    return key in load(DEFAULT).texts


def refusal(code: str, message: str, **params: Any) -> str:
    """The table's sentence for an engine refusal: the catalog's `refusal.<code>` where the
    code says enough, else the engine's own (English) message, which records keep."""
    key = f"refusal.{code}"
    if current().code == DEFAULT or not has(key):  # English: the engine's own sentence
        return message
    try:
        return text(key, **params)
    except KeyError:  # the sentence wants a name this refusal did not come with
        return message


def catalog_problem(said: str) -> str:
    """A problem `catalog check` found, in the current language: the catalog's
    `catalog_check.<code>` filled with the problem's values (engine/arcana/problems.py's
    Problem). In English, and for a sentence without a code, the sentence as it was said:
    the engine's English is en.toml's word for word, so the CLI and the pages agree."""
    code = getattr(said, "code", None)
    if code is None or current().code == DEFAULT:
        return str(said)
    return text(f"catalog_check.{code}", **said.params)  # type: ignore[attr-defined]


def local_name(name: str, own: Mapping[str, str] | None = None) -> str:
    """A name in the current language: the catalog's `own` names for it where they give this
    language, else the sample catalogs' name in it ("Ferrymen": "Fährleute"), else `name`."""
    return (own or {}).get(code()) or current().names.get(name, name)


def res_arcana_name(card: str) -> str:
    """A Res Arcana card's name in the current language (`[res_arcana_cards]` of its
    catalog), else the engine's printed English name ("seer_orb": "Seer's Orb")."""
    from engine.resarcana import name

    return current().res_arcana_cards.get(card) or name(card)
