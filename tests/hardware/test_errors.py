"""One error base for the hardware package: every exception class a hardware module defines
derives from `hardware.errors.HardwareError` (as gpiozero's errors from `GPIOZeroError`), and
keeps the standard exception it always was, so existing `except` clauses still catch it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import hardware
from hardware.buses import BusUnavailable
from hardware.errors import HardwareError
from hardware.nfc.ndef import NdefError
from hardware.profile import ProfileError


def hardware_modules() -> list[str]:
    return sorted(
        info.name for info in pkgutil.walk_packages(hardware.__path__, prefix="hardware.")
    )


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined (not imported) at the top of a hardware module."""
    found: dict[str, type[BaseException]] = {}
    for name in hardware_modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == name
            ):
                found[f"{name}.{attr}"] = value
    return found


def test_every_hardware_exception_derives_from_hardware_error() -> None:
    classes = exception_classes()
    assert "hardware.nfc.reader.ReaderFault" in classes  # the walk reaches the subpackages
    assert "hardware.buses.base.BusUnavailable" in classes
    outside = sorted(name for name, cls in classes.items() if not issubclass(cls, HardwareError))
    assert outside == [], "derive these from hardware.errors.HardwareError"


def test_the_standard_bases_are_kept() -> None:
    assert issubclass(ProfileError, ValueError)
    assert issubclass(NdefError, ValueError)
    assert issubclass(BusUnavailable, OSError)
    error = BusUnavailable("no SPI: sudo raspi-config nonint do_spi 0")
    assert isinstance(error, HardwareError) and isinstance(error, OSError)
