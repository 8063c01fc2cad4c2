"""Every exception class the firmware defines derives from one base, `FirmwareError`."""

import importlib
import inspect
import pkgutil

import firmware
from firmware.errors import FirmwareError


def firmware_modules():
    for info in pkgutil.walk_packages(firmware.__path__, "firmware."):
        if info.name != "firmware.__main__":  # runs the command line when imported
            yield importlib.import_module(info.name)


def test_every_exception_class_under_firmware_derives_from_firmware_error():
    defined = {
        f"{module.__name__}.{name}": cls
        for module in firmware_modules()
        for name, cls in vars(module).items()
        if inspect.isclass(cls)
        and issubclass(cls, BaseException)
        and cls.__module__ == module.__name__
    }
    assert len(defined) >= 11  # JournalError and its three, EnrollError, BadInput, ...
    strays = sorted(name for name, cls in defined.items() if not issubclass(cls, FirmwareError))
    assert strays == []


def test_the_errors_are_still_caught_as_before():
    from firmware.enrollment import EnrollError, NeedsConfirmation
    from firmware.enrollment_csv import CsvProblem
    from firmware.journal_file import JournalBusy, JournalDamaged
    from firmware.journal_rows import JournalError, UnreadableGame
    from firmware.sim.table import BadInput
    from firmware.web.guard import NotANumber

    for cls in (JournalError, JournalBusy, JournalDamaged, UnreadableGame):
        assert issubclass(cls, RuntimeError)
    for cls in (EnrollError, NeedsConfirmation, CsvProblem, BadInput, NotANumber):
        assert issubclass(cls, ValueError)
