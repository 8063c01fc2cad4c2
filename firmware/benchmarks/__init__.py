"""Benchmarks behind `arcana-table bench TARGET`; one module per target."""
