"""A New York (session) site's day with play at its tables closes its books only once its
games-of-chance session is recorded: Kingston's day entered from paper (drop counted, tables paid
out, no session) closed, and its page read "Receipts $0.00 ... Drop counted ... Difference" for
ever. Driven through the floor's, the count's, the cage's, the sessions' and the books' services."""

import pytest
from django.core.exceptions import ValidationError

from accounting import services as books
from cage import services as cage
from cardroom.models import Role
from floor import services as floor
from floor.models import GamingDay
from tests.factories import make_person

from .test_sessions_against_custody import DAY, PRIZES, RECEIPTS, at, floor_day, typed_session

pytestmark = pytest.mark.django_db


def test_a_session_days_books_refuse_to_close_without_its_session(org, ny_site, ny_shift):
    floor_day(org, ny_site, forms=[{"kind": "fill", "number": 1}, {"kind": "credit", "number": 1}])
    manager = make_person(org, Role.GAMING_MANAGER, ny_site)
    cashier = make_person(org, Role.CASHIER, ny_site)
    for kind, moment in (("start", at("17:50")), ("end", at("23:50"))):
        cage.record_bank_count(
            acting_user=cashier.user, site=ny_site, gaming_date=DAY, kind=kind, cash={100: 10}, chips={}, at=moment
        )
    floor.close_gaming_day(acting_user=ny_shift.user, gaming_day=GamingDay.objects.get(site=ny_site, gaming_date=DAY))

    def close():
        return books.close_books(acting_user=manager.user, site=ny_site, gaming_date=DAY)

    with pytest.raises(ValidationError) as refused:
        close()
    message = refused.value.message_dict["gaming_date"][0]
    assert message.startswith(f"9 NYCRR 4620.5: the tables of {DAY} at Kingston Fire Hall were played")
    assert "drop $1,096.00, paid out at the tables $992.00" in message
    assert "no games-of-chance session is recorded" in message and "/fees/sessions/" in message
    typed_session(ny_shift, ny_site, RECEIPTS, PRIZES)
    assert close().figures["pack"]["sessions"]["receipts_cents"] == RECEIPTS
