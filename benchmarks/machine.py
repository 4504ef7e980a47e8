"""A reading of the machine's speed, printed beside a measurement.

The benchmark machines are virtual and their speed drifts: on one 2-core machine the same
full compliance scan took 30 s one day and 39 s the next with the same code, and within one
hour by a fifth. A figure alone cannot say whether the code or the machine changed; the time
of a fixed piece of pure Python taken just before and after it can. Only runs with similar
readings compare; a later session reruns the old code beside the new when they differ."""

import time

LOOP = 20_000_000


def loop_seconds() -> float:
    """Seconds a fixed pure-Python loop of LOOP additions takes now (about 1.1-1.9 s on the
    2-core machine of the README's figures)."""
    started, total = time.perf_counter(), 0
    for n in range(LOOP):
        total += n
    return time.perf_counter() - started
