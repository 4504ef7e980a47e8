"""load_demo's progress: a bar on a terminal, a line per step in a log."""

import io

from core import demo_progress


def _ticks():
    now = [0.0]

    def clock():
        now[0] += 0.5
        return now[0]

    return clock


def test_a_log_gets_one_line_per_step_with_its_units_and_time():
    out = io.StringIO()
    progress = demo_progress.Progress(out, 2, tty=False, clock=_ticks())
    demo_progress._current = progress
    try:
        with demo_progress.step("gaming days and slips"):
            for _ in range(3):
                demo_progress.advance("gaming days")
        with demo_progress.step("drop counts"):
            pass
    finally:
        demo_progress._current = None
    lines = out.getvalue().splitlines()
    assert lines == [
        "[1/2] gaming days and slips: done in 0.5 s, 3 gaming days",
        "[2/2] drop counts: done in 0.5 s",
    ]


def test_a_terminal_gets_a_bar_redrawn_in_place():
    out = io.StringIO()
    with demo_progress.reporting(4, out, tty=True):
        with demo_progress.step("gaming days and slips"):
            demo_progress.advance("gaming days")
    text = out.getvalue()
    assert "\r[" + "-" * 30 + "] 0/4 gaming days and slips" in text
    assert "(1 gaming days)" in text
    assert "\r[" + "#" * 7 + "-" * 23 + "] 1/4" in text  # a quarter of the bar after one step of four
    assert text.rstrip().endswith("s.") and "Demo built in" in text


def test_outside_load_demo_advancing_reports_nothing():
    demo_progress.advance("gaming days")  # no error, no output: tests and other callers build quietly
    with demo_progress.step("anything"):
        pass
    assert demo_progress._current is None
