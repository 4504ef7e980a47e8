"""A duty sign-in joins the open gaming day (ND 99-01.3-08-05(5)'s register): the time given, or
now when none is, lies in that day's business hours (core.moments.occurred_at, the pack's
business day: ND 99-01.3-02-01), or the sign-in is a 400 on `at` and nothing is written."""

from datetime import timedelta

from cardroom.models import Role
from floor import services
from floor.models import DutyPeriod

from .conftest import in_day, today

URL = "/api/v1/duty-periods/"


def test_a_sign_in_before_the_open_days_first_hour_is_a_400_on_at(client_for, cast, site, gaming_day):
    before_the_day = in_day(site, gaming_day.gaming_date, hours=-1)
    response = client_for(cast[Role.PIT_BOSS]).post(
        URL, {"site": site.pk, "at": before_the_day.isoformat()}, format="json"
    )
    assert response.status_code == 400
    message = response.json()["at"][0]
    assert message.startswith("ND 99-01.3-02-01: ")
    assert f"is outside the business hours of the gaming day {gaming_day.gaming_date}" in message
    assert not DutyPeriod.objects.exists()


def test_a_day_already_over_takes_its_papers_time_and_refuses_a_blank_one(client_for, cast, site, shift_manager):
    yesterday = today(site) - timedelta(days=1)
    day = services.open_gaming_day(
        acting_user=shift_manager.user, site=site, gaming_date=yesterday, at=in_day(site, yesterday)
    )
    boss = client_for(cast[Role.PIT_BOSS])
    blank = boss.post(URL, {"site": site.pk}, format="json")
    assert blank.status_code == 400
    message = blank.json()["at"][0]
    assert "no time was given and now" in message and f"the gaming day {yesterday} is over" in message
    assert "ND 99-01.3-02-01" in message and not DutyPeriod.objects.exists()
    # Naive: the site's local time, hours into yesterday's gaming day.
    on_paper = in_day(site, yesterday, hours=3).replace(tzinfo=None)
    signed = boss.post(URL, {"site": site.pk, "at": on_paper.isoformat()}, format="json")
    assert signed.status_code == 201, signed.json()
    assert signed.json()["gaming_day"] == day.pk
    assert DutyPeriod.objects.get().started_at == in_day(site, yesterday, hours=3)


def test_a_sign_in_inside_the_open_day_is_recorded_at_its_time(client_for, cast, site, gaming_day):
    moment = in_day(site, gaming_day.gaming_date, hours=0)
    response = client_for(cast[Role.PIT_BOSS]).post(URL, {"site": site.pk, "at": moment.isoformat()}, format="json")
    assert response.status_code == 201, response.json()
    assert DutyPeriod.objects.get().started_at == moment
