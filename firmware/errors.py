"""One base for every error the firmware raises on purpose (as gpiozero's `GPIOZeroError`).

    try:
        journal.append(game_id, line)
    except FirmwareError as err:   # JournalError, EnrollError, BadInput, ...: one sentence
        print(err)

Each error keeps its own name and, where callers catch it as one, a second standard base
(`JournalError` is a `RuntimeError`; `EnrollError`, `CsvProblem`, `BadInput`, `NotANumber`
are `ValueError`s), so nothing that catches those changes. `tests/firmware/test_errors.py`
checks that every exception class under `firmware/` derives from `FirmwareError`.

A sentence that the web pages say in another language is a `Said`: the English `str` (the
CLI, logs and tests read it as ever) that remembers its key of `[web_refusal]`
(firmware/language) and its values; `firmware.web.sentences.in_language` says it again.

    Said(f"tag {uid} has no card id", "enroll_no_card_id", {"uid": uid})
"""

from __future__ import annotations

from typing import Any


class FirmwareError(Exception):
    """Something the firmware refuses or cannot do; the message is a sentence for people."""


class Said(str):
    """An English sentence with its catalog key and values (English word for word en.toml's
    `[web_refusal] key` filled with `params`: tests keep them so)."""

    key: str
    params: dict[str, Any]

    def __new__(cls, english: str, key: str, params: dict[str, Any] | None = None) -> Said:
        made = super().__new__(cls, english)
        made.key = key
        made.params = dict(params or {})
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # copied or pickled, it keeps its key and values
        return Said, (str(self), self.key, self.params)


__all__ = ["FirmwareError", "Said"]
