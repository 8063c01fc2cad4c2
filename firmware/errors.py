"""One base for every error the firmware raises on purpose (as gpiozero's `GPIOZeroError`).

    try:
        journal.append(game_id, line)
    except FirmwareError as err:   # JournalError, EnrollError, BadInput, ...: one sentence
        print(err)

Each error keeps its own name and, where callers catch it as one, a second standard base
(`JournalError` is a `RuntimeError`; `EnrollError`, `CsvProblem`, `BadInput`, `NotANumber`
are `ValueError`s), so nothing that catches those changes. `tests/firmware/test_errors.py`
checks that every exception class under `firmware/` derives from `FirmwareError`.
"""

from __future__ import annotations


class FirmwareError(Exception):
    """Something the firmware refuses or cannot do; the message is a sentence for people."""


__all__ = ["FirmwareError"]
