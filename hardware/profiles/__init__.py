"""The table profiles shipped with the package (TOML data; see docs/hardware.md)."""
