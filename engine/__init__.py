"""The rules of the games: pure standard-library Python, no I/O, no clock.

One sub-package per game (`engine.arcana`, `engine.resarcana`) and what they share:
`engine.protocol` (the game API) and `engine.records` (game records and replay).
"""
