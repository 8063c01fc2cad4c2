"""The web app's tests: helpers in tests/support/web_table.py; zbar installed for them."""

from web_table import zbarimg

__all__ = ["zbarimg"]
