"""The appliance: event loop, table profile, card registry, per-game controllers, screens,
journal, the `arcana-table` command and the web simulator."""
