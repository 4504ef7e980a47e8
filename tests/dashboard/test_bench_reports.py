"""The report benchmark runs end to end on a tiny data set and leaves nothing behind."""

from io import StringIO

import pytest
from django.core.management import call_command

from cardroom.models import Organization
from floor.models import Slip


@pytest.mark.django_db
def test_bench_reports_prints_the_figures_beside_the_baselines_and_rolls_back():
    before = Organization.objects.count()
    out = StringIO()
    call_command(
        "bench_reports", "--tables=1", "--days=1", "--dealers=1", "--shifts=1", "--slips=1", "--repeat=1", "--pdf",
        "--kinds=quarterly,dealer_hold,daily,count_sheets", stdout=out,
    )  # fmt: skip
    text = out.getvalue()
    assert "quarterly summary" in text and "dealer percent-of-hold, every dealer" in text
    assert "ratio" in text and "PDF" in text
    assert "rolled back" in text
    # The kinds asked for, each beside the same furniture around a bare table; the
    # furniture's own time; the machine reading and the worst ratio last.
    assert "the furniture alone" in text
    for kind in ("quarterly PDF", "dealer_hold PDF", "daily PDF", "count_sheets PDF"):
        assert kind in text
    lines = text.strip().splitlines()
    assert lines[-2].startswith("machine: a fixed Python loop")
    assert lines[-1].startswith("ratio to floor: ") and "(target 2)" in lines[-1]
    assert Organization.objects.count() == before and not Slip.objects.exists()
