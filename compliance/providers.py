"""Inputs of the rules, gathered from the other apps for many sites at once.

Each provider issues a fixed number of queries for all the sites of a run, whatever their
number (benchmarked by `manage.py bench_compliance`)."""
