"""The web table simulator: the real firmware on the emulated hardware of a table profile,
with a page of the table in the browser (`arcana-table sim`, docs/simulator.md).

`firmware.sim.table` (the emulated table and its state as JSON) needs only the firmware;
`firmware.sim.server` needs the optional `sim` extra (aiohttp).
"""
