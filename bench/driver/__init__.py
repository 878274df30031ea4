"""The benchmark driver behind `make bench` (bench/run.py is the entry point)."""
