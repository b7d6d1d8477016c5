"""Benchmarks: `make bench` (or `python -m bench`) runs every bench_*.py module."""
