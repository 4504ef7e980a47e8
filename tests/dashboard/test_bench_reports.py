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
    call_command("bench_reports", "--tables=2", "--days=3", "--dealers=3", "--repeat=1", "--pdf", stdout=out)
    text = out.getvalue()
    assert "quarterly summary" in text and "dealer percent-of-hold, every dealer" in text
    assert "ratio" in text and "PDF" in text
    assert "rolled back" in text
    assert Organization.objects.count() == before and not Slip.objects.exists()
