"""PN532 NFC readers under the table's pads: emulator, buses, tags and NDEF, reader, scanner.

- `emulator.EmulatedPN532` and `buses` (I2C with TCA9548A, SPI with chip-selects, UART): a
  bus-level PN532 the real adafruit driver talks to, with a test API and fault injection.
- `tags.Ntag`, `tags.MifareClassic1K`: emulated tags; `ndef`: card ids as NDEF text records.
- `reader.Reader`: one pad's reader over any bus; `scanner.Scanner`/`ScanThread`: events.
- `bench.scan_cycle_figures`: bus and CPU figures per scan cycle for `arcana-table bench`.
See docs/nfc.md.
"""
