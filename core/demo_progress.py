"""Progress of `manage.py load_demo`: a bar on a terminal, one line per step elsewhere.

The command announces its steps (the base data, then each app's demo builder); a builder that
loops over many units (gaming days, counts) calls `advance("gaming days")` after each, so the
bar moves within a long step. Outside `load_demo` (tests, other callers) nothing is reporting
and `advance` does nothing."""

import sys
import time
from collections.abc import Callable
from contextlib import contextmanager

BAR_WIDTH = 30


class Progress:
    def __init__(self, stream, total: int, *, tty: bool | None = None, clock: Callable[[], float] = time.monotonic):
        self.stream, self.total, self.clock = stream, total, clock
        self.tty = stream.isatty() if tty is None else tty
        self.done, self.step_name, self.units, self.unit_label = 0, "", 0, ""
        self.started = self.step_started = clock()

    def start(self, name: str) -> None:
        self.step_name, self.units, self.unit_label, self.step_started = name, 0, "", self.clock()
        self._draw()

    def advance(self, unit_label: str) -> None:
        self.units += 1
        self.unit_label = unit_label
        if self.tty:
            self._draw()

    def finish_step(self) -> None:
        self.done += 1
        if self.tty:
            self._draw()
        else:
            units = f", {self.units} {self.unit_label}" if self.units else ""
            self.stream.write(
                f"[{self.done}/{self.total}] {self.step_name}: done in {self.clock() - self.step_started:.1f} s{units}\n"
            )
            self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
        self.stream.write(f"Demo built in {self.clock() - self.started:.1f} s.\n")
        self.stream.flush()

    def _draw(self) -> None:
        if not self.tty:
            return
        filled = BAR_WIDTH * self.done // self.total
        units = f" ({self.units} {self.unit_label})" if self.units else ""
        line = (
            f"\r[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {self.done}/{self.total} "
            f"{self.step_name}{units} {self.clock() - self.started:.0f} s"
        )
        self.stream.write(line.ljust(79)[:79] if len(line) < 79 else line)
        self.stream.flush()


_current: Progress | None = None


@contextmanager
def reporting(total: int, stream=None, *, tty: bool | None = None):
    """Report the steps run inside the block (load_demo)."""
    global _current
    _current = Progress(stream or sys.stdout, total, tty=tty)
    try:
        yield _current
    finally:
        _current.close()
        _current = None


@contextmanager
def step(name: str):
    """One step of the build; nothing is reported outside `reporting`."""
    if _current is not None:
        _current.start(name)
    yield
    if _current is not None:
        _current.finish_step()


def advance(unit_label: str) -> None:
    """One more unit (a gaming day, a count) of the current step."""
    if _current is not None:
        _current.advance(unit_label)
