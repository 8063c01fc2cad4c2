"""Every device of the table and its emulator; knows nothing about games.

Readers give `placed`/`removed` events with a reader name and a UID, displays take images,
buttons give presses. The emulators (a bus-level PN532, a recording display bus, gpiozero's
mock pins) live here too, because the demo and the simulator run on them.
"""
