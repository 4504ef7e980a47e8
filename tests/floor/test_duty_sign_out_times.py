"""A duty sign-out (ND 99-01.3-08-05(5)'s register) is read like its sign-in and a dealer shift's
end (core.moments.occurred_at with the site): a naive time is the site's local time; it is not in
the future, not before the sign-in (core.moments.refuse_before, citing the register's rule), and
it may follow the gaming day's last hour, else a 400 on `at` and the period stays open."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from cardroom.models import Role
from core.moments import site_zone
from floor import services
from floor.models import DutyPeriod

from .conftest import in_day, today

URL = "/api/v1/duty-periods/"


@pytest.fixture
def earlier(site, shift_manager):
    """A gaming day two days gone, entered from paper: the hour after its last is past too."""
    gaming_date = today(site) - timedelta(days=2)
    services.open_gaming_day(
        acting_user=shift_manager.user, site=site, gaming_date=gaming_date, at=in_day(site, gaming_date)
    )
    return gaming_date


@pytest.fixture
def period(cast, site, earlier):
    boss = cast[Role.PIT_BOSS]
    return services.start_duty(acting_user=boss.user, site=site, at=in_day(site, earlier, hours=20))


def test_a_naive_sign_out_is_the_sites_local_time_and_may_follow_the_days_last_hour(cast, site, earlier, period):
    after_the_day = in_day(site, earlier, hours=25)  # an hour into the next gaming day
    ended = services.end_duty(
        acting_user=cast[Role.PIT_BOSS].user, period=period, at=after_the_day.replace(tzinfo=None)
    )
    assert ended.ended_at == after_the_day


def test_a_sign_out_before_the_sign_in_is_refused_citing_the_register_and_changes_nothing(cast, site, earlier, period):
    with pytest.raises(ValidationError) as refusal:
        services.end_duty(acting_user=cast[Role.PIT_BOSS].user, period=period, at=in_day(site, earlier, hours=19))
    message = refusal.value.message_dict["at"][0]
    assert message.startswith("ND 99-01.3-08-05(5): a duty period ends after it starts; ")
    assert "is before its sign-in" in message
    assert DutyPeriod.objects.get().ended_at is None


def test_through_the_api_a_naive_time_after_the_day_signs_out(client_for, cast, site, earlier, period):
    next_days_start = in_day(site, earlier, hours=24).replace(tzinfo=None)
    response = client_for(cast[Role.PIT_BOSS]).post(
        f"{URL}{period.pk}/end/", {"at": next_days_start.isoformat()}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert DutyPeriod.objects.get().ended_at == in_day(site, earlier, hours=24)


@pytest.mark.parametrize(
    ("when", "refusal"),
    [
        ("before", "ND 99-01.3-08-05(5): a duty period ends after it starts; "),
        ("future", "House control: a record cannot be dated in the future ("),
    ],
)
def test_through_the_api_a_sign_out_before_the_sign_in_or_in_the_future_is_a_400_on_at(
    client_for, cast, site, earlier, period, when, refusal
):
    local_now = timezone.now().astimezone(site_zone(site)).replace(tzinfo=None)
    at = in_day(site, earlier, hours=19).replace(tzinfo=None) if when == "before" else local_now + timedelta(hours=1)
    response = client_for(cast[Role.PIT_BOSS]).post(f"{URL}{period.pk}/end/", {"at": at.isoformat()}, format="json")
    assert response.status_code == 400
    assert response.json()["at"][0].startswith(refusal)
    assert DutyPeriod.objects.get().ended_at is None
