"""The web servers' refusals in the page's language: a refusal is made in English with its key,
and answered in the language of the game shown (as `GET /api/words` picks it).

    raise guard.Refused(403, said("owner_only"))         # "Only the owner's phone may do this"
    in_language(message, "de")                           # "Nur das Handy des Besitzers ..."

`said(key, **params)` is `[web_refusal] key` of `firmware/language/en.toml` filled in: a `str`
(the English sentence: logs, tests and the exceptions that carry it read it as ever) that
remembers its key and params. `in_language` fills the same key in another catalog; a param
that is itself a `Sentence` (or a list of sentences, joined with "; ") is put in that language
too, and any other text (a card id, a file's name, a parser's words) is kept as it is. A plain
`str` is answered unchanged, so a refusal not made with `said` stays English. A problem of
`catalog check` (engine/arcana/problems.py's Problem, alone or as a param) is said from
`[catalog_check]` by its code (`firmware.language.catalog_problem`). A journal error passed on
(`from_error`) is said by its code too.
"""

from __future__ import annotations

from typing import Any

from engine.arcana.problems import Problem
from firmware.errors import Said
from firmware.language import DEFAULT, LanguageError, catalog_problem, load, using

TABLE = "web_refusal"


class Sentence(Said):
    """An English refusal that knows its catalog key and params (`said`): its English is the
    catalog's. A `Said` made elsewhere (the journal's, the enrollment's) is said the same way."""

    def __new__(cls, key: str, params: dict[str, Any]) -> Sentence:
        english = _fill(load(DEFAULT).texts[f"{TABLE}.{key}"], params, DEFAULT)
        return super().__new__(cls, english, key, params)


def said(key: str, **params: Any) -> Sentence:
    """The refusal `key` of `[web_refusal]` in English, with its params (no such key:
    KeyError)."""
    return Sentence(key, params)


def from_error(err: BaseException) -> str:
    """An error's sentence as a `Said` the pages can say again, when it was made as one (the
    journal's, firmware/journal*.py: busy, damaged, a disk full, ...; the enrollment's,
    firmware/enrollment*.py); else its message as it is."""
    message = err.args[0] if err.args else None
    return message if isinstance(message, Said) else str(err)


def in_language(message: str, code: str | None) -> str:
    """`message` in language `code` when it is a `Sentence`, else `message` itself; an unknown
    language keeps the English (a refusal must not fail for want of a catalog)."""
    if isinstance(message, Problem) and code and code != DEFAULT:
        try:
            with using(code):
                return catalog_problem(message)
        except LanguageError:
            return str(message)
    if not isinstance(message, Said) or not code or code == DEFAULT:
        return str(message)
    try:
        template = load(code).texts[f"{TABLE}.{message.key}"]
    except (LanguageError, KeyError):
        return str(message)
    return _fill(template, message.params, code)


def _fill(template: str, params: dict[str, Any], code: str) -> str:
    return template.format(**{name: _value(value, code) for name, value in params.items()})


def _value(value: Any, code: str) -> Any:
    if isinstance(value, Said | Problem):
        return in_language(value, code)
    if isinstance(value, list | tuple):
        return "; ".join(str(_value(item, code)) for item in value)
    return value
