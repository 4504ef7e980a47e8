"""A reading of the machine's speed, printed beside a measurement.

The benchmark machines are virtual and their speed drifts: on the 2-core machine of the
README's figures the same full compliance scan took 33.4 s and 37.7 s twelve minutes apart,
and the loop below 1.1-1.2 s one day and 1.2-1.9 s the next. A figure alone cannot say
whether the code or the machine changed; the time of a fixed piece of pure Python taken just
before and after it can. Only runs with similar readings compare; when they differ, the old
code is rerun in turns with the new."""

import time

LOOP = 20_000_000


def loop_seconds() -> float:
    """Seconds a fixed pure-Python loop of LOOP additions takes now (about 1.1-1.9 s on the
    2-core machine of the README's figures)."""
    started, total = time.perf_counter(), 0
    for n in range(LOOP):
        total += n
    return time.perf_counter() - started
