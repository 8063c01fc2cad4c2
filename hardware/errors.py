"""The one base of every exception the hardware package raises, as gpiozero's
`GPIOZeroError`: `except HardwareError` catches any of them. Each keeps the standard
exception it always was too (`ProfileError` is a `ValueError`, `BusUnavailable` an
`OSError`), so code that catches those is unchanged."""


class HardwareError(Exception):
    """Something the hardware package refuses or a device failed at."""
