"""Input written in no form its field reads is refused naming the field and its rule, House
control (the regulations state none of these forms): the same words from the API's query
parameters, the pages' forms and the commands' arguments, and nothing is changed."""

import pytest
from django.core.management import CommandError, call_command

from cardroom.models import Role
from core import limits
from core.periods import Quarter
from reports.models import ReportRun

QUARTER = "House control: write quarter as YYYYQn, for example 2026Q3 (got '2026Q5')."
DATE = "House control: write date as YYYY-MM-DD (got '14-08-2026')."
REGISTER = "House control: end is on or after start and within 366 days of it."


def test_the_one_wording_names_the_field_its_form_and_what_was_written():
    assert limits.format_message("month", "YYYY-MM", "garbage", "2026-11") == (
        "House control: write month as YYYY-MM, for example 2026-11 (got 'garbage')."
    )
    assert limits.date_text_message(" ", "start") == "House control: write start as YYYY-MM-DD (got nothing)."
    with pytest.raises(Exception) as refused:
        Quarter.parse("2026Q5", field="period")
    assert refused.value.message_dict == {"period": [QUARTER.replace("write quarter", "write period")]}


@pytest.mark.parametrize(
    ("path", "params", "field", "said"),
    [
        ("daily-summary", {"date": "14-08-2026"}, "date", DATE),
        ("quarter-summary", {"quarter": "2026Q5"}, "quarter", QUARTER),
        ("slip-register", {"start": "2026-11-10", "end": "2026-11-01"}, "end", REGISTER),
        (
            "slip-register",
            {"start": "2026-11-01", "end": "01/11/2026"},
            "end",
            "House control: write end as YYYY-MM-DD (got '01/11/2026').",
        ),
    ],
)
def test_the_api_refuses_a_query_parameter_naming_the_field_and_house_control(
    client_for, cast, site, path, params, field, said
):
    response = client_for(cast[Role.AUDITOR]).get(f"/api/v1/sites/{site.pk}/{path}/", params)
    assert response.status_code == 400, response.content
    (message,) = response.json()[field]
    assert message.startswith(said) and f" {field} " in message


@pytest.mark.parametrize(
    ("url", "params", "said"),
    [
        ("/dashboard/daily/", {"date": "14-08-2026"}, DATE),
        ("/dashboard/quarter/", {"quarter": "2026Q5"}, QUARTER),
        ("/floor/register/", {"start": "2026-11-10", "end": "2026-11-01"}, REGISTER),
        ("/compliance/calendar/", {"month": "2026-13"}, "House control: month names no month (2026-13 is not a month"),
    ],
)
def test_a_page_form_says_the_same_words_inline(client, cast, site, url, params, said):
    client.force_login(cast[Role.AUDITOR].user)
    response = client.get(url, {"site": site.pk, **params})
    assert response.status_code == 400
    assert said.replace("'", "&#x27;") in response.content.decode()


def test_the_reports_form_refuses_a_bad_quarter_in_the_api_words_and_makes_no_report(client, cast, site):
    client.force_login(cast[Role.AUDITOR].user)
    response = client.post("/reports/", {"kind": "house_rules", "site": site.pk, "quarter": "2026Q5"})
    assert response.status_code == 400 and QUARTER.replace("'", "&#x27;") in response.content.decode()
    assert not ReportRun.objects.exists()


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"quarter": "2026Q5"}, f"--quarter: {QUARTER}"),
        ({"date": "14-08-2026"}, f"--date: {DATE}"),
    ],
)
def test_a_command_argument_is_refused_in_the_same_words(cast, site, tmp_path, options, said):
    with pytest.raises(CommandError) as refused:
        call_command(
            "generate_report",
            "daily",
            site=site.pk,
            user=cast[Role.AUDITOR].user.username,
            output=str(tmp_path / "x"),
            **options,
        )
    assert str(refused.value) == said
    assert not ReportRun.objects.exists() and not (tmp_path / "x").exists()
