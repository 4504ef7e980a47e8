"""The nightly benchmark times both jobs from all history and from their checkpoints, and leaves nothing behind."""

from io import StringIO

import pytest
from django.core.management import call_command

from cardroom.models import Organization
from compliance.models import SlipSeriesCheckpoint
from core.models import AuditCheckpoint


@pytest.mark.django_db
def test_bench_nightly_prints_both_jobs_full_and_incremental_and_rolls_back():
    before = Organization.objects.count()
    out = StringIO()
    call_command("bench_nightly", "--quarters=1", "--days=1", "--tables=1", "--workers=2", stdout=out)
    text = out.getvalue()
    assert "split in 2 slices" in text and "with 2 workers:" in text and text.count("machine: loop") == 2
    assert "from all history (no checkpoint)" in text and "--full (every event and row)" in text
    assert text.count("from the checkpoints (no") == 2 and "0 from the checkpoints; rows:" in text
    assert "rolled back" in text
    assert Organization.objects.count() == before
    assert not SlipSeriesCheckpoint.objects.exists() and not AuditCheckpoint.objects.exists()
