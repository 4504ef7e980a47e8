"""A form's posted id that is not one (blank, a word, negative, past the largest id) is "no such
record" (404 for the site switcher, an inline refusal for a report's site), never a 500
(`core.limits.record_id`)."""

import pytest

from cardroom.models import Role
from core import limits

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "value"),
    [("12", 12), (" 7 ", 7), ("", None), (None, None), ("x", None), ("-1", None), ("0", None), ("1e3", None),
     (str(limits.MAX_ID), limits.MAX_ID), (str(limits.MAX_ID + 1), None), ("9" * 40, None), ("١٢", None)],
)  # fmt: skip
def test_record_id_reads_only_an_id(text, value):
    assert limits.record_id(text) == value


@pytest.mark.parametrize("posted", ["", "x", "-1", "9" * 30])
def test_the_site_switcher_answers_404_for_a_site_that_is_not_one(client, cast, site, posted):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    assert client.post("/switch-site/", {"site": posted, "next": "/"}).status_code == 404
    assert client.post("/switch-site/", {"site": str(site.pk), "next": "/"}).status_code == 302


@pytest.mark.parametrize("posted", ["x", "-1", "9" * 30])
def test_a_report_asked_for_a_site_that_is_not_one_is_refused_at_the_site(client, cast, site, posted):
    from reports.models import ReportRun

    client.force_login(cast[Role.AUDITOR].user)
    response = client.post("/reports/", {"kind": "daily", "site": posted, "start": "2026-11-01", "end": "2026-11-02"})
    assert response.status_code == 400
    assert not ReportRun.objects.exists()
