"""Closed books stay closed when a fee meets the books' close (core.acts.hold_books_open), on
whichever database the suite runs (SQLite by default, PostgreSQL with DATABASE_URL): a fee or
a fee's void that found the day's books open before its transaction, while another terminal
closed them, is refused inside it, and the closed figures stand as closed."""

import pytest
from django.core.exceptions import ValidationError

from accounting.models import BooksClose
from cardroom.models import Role
from core import acts
from core.audit_verify import verify_chain
from fees import services
from fees.models import FeeCollection
from tests.fees.test_books import DAY, _fee, fee_day  # noqa: F401
from tests.fees.test_frozen_revenue import fee_day_to_close  # noqa: F401
from tests.race_support import after_first_look


def _close_once_checked(monkeypatch, cast, site):
    """The books are closed on another terminal right after the act's first look at them (before
    its transaction), and that close commits before the act goes on."""
    from accounting import services as books

    def close(manager):
        return books.close_books(acting_user=manager, site=site, gaming_date=DAY)

    return after_first_look(monkeypatch, acts, "refuse_closed_books", close, cast[Role.GAMING_MANAGER].user)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("act", ["void", "fee"])
@pytest.mark.usefixtures("fee_day_to_close")
def test_a_fee_meeting_the_books_close_is_refused_and_the_closed_day_keeps_its_fees(
    cast, site, bj_table, monkeypatch, act
):
    other = _close_once_checked(monkeypatch, cast, site)
    with pytest.raises(ValidationError) as refused:
        if act == "void":
            services.void_fee(
                acting_user=cast[Role.GAMING_MANAGER].user,
                fee=FeeCollection.objects.order_by("pk").first(),
                reason="twice",
            )
        else:
            _fee(cast, bj_table, 16)
    assert isinstance(other.result(), BooksClose), other.result()
    assert "so a table fee of 2026-08-14 cannot be changed" in str(refused.value)
    assert FeeCollection.objects.count() == 2
    assert BooksClose.objects.get().figures["cash"]["cash_profit_cents"] == 1600
    assert verify_chain().ok
