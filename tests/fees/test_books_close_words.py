"""The books-close refusal of a day with no gaming day and no bank count names only the cash the
site's pack has: at a New York site (Kingston) its games-of-chance sessions, never tournament fees
or prizes (NY has no tournaments) nor table fees (a fees site's: tests/fees/test_books.py; a North
Dakota tournament day's: tests/accounting/test_days_of_the_books.py). Driven through the services."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from accounting import services as books
from cardroom.models import Role
from tests.factories import make_person

from .conftest import one_days_start, record_session

REFUSAL = (
    " (no gaming day was opened, but cash was at the cage: {} or an adjusting entry to the cash; a day whose only "
    "records are adjustments of other figures"
)


def refusal(manager, site, day) -> str:
    with pytest.raises(ValidationError) as refused:
        books.close_books(acting_user=manager.user, site=site, gaming_date=day)
    return refused.value.message_dict["gaming_date"][0]


def test_a_new_york_session_day_asks_for_its_bank_count_naming_its_sessions_alone(org, ny_site, ny_shift):
    session = record_session(ny_shift.user, ny_site, one_days_start(ny_site, timedelta(hours=3)))
    message = refusal(make_person(org, Role.GAMING_MANAGER, ny_site), ny_site, session.gaming_date)
    assert message.startswith(f"House control: the starting and ending cash bank count of {session.gaming_date}")
    assert REFUSAL.format("games-of-chance sessions") in message
    assert "tournament" not in message and "fees" not in message
