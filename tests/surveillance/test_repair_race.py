"""An outage's repair sent from two terminals at once is recorded once, on whichever database the
suite runs (SQLite by default, PostgreSQL with DATABASE_URL): the other copy is refused by the
service (read again under the outage's row lock), in its words, not by the database (an
IntegrityError) nor by the model's generic check. The other terminal acts after this one's first
look, or once this one's repair is written but not committed (on SQLite it then waits for it:
IMMEDIATE transactions)."""

import pytest
from django.core.exceptions import ValidationError

from core import acts, moments
from core.audit_verify import verify_chain
from surveillance import services
from surveillance.models import Outage, OutageRepair
from tests.race_support import after_first_look

from .conftest import local
from .test_outages import outage  # noqa: F401

CROSSED = {"before its transaction": (moments, "refuse_before"), "inside it": (acts, "record")}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("crossed", CROSSED)
def test_an_outage_repaired_from_two_terminals_at_once_has_one_repair(
    outage,  # noqa: F811
    shift_manager,
    monkeypatch,
    crossed,
):
    def repair(user):  # each terminal reads the outage itself
        return services.record_outage_repair(
            acting_user=user,
            outage=Outage.objects.get(pk=outage.pk),
            repaired_at=local(2026, 3, 2, 23),
            description="Refocused",
        )

    other = after_first_look(monkeypatch, *CROSSED[crossed], repair, shift_manager.user)
    try:
        results = [repair(shift_manager.user)]
    except ValidationError as exc:
        results = [exc]
    results.append(other.result())

    assert len([r for r in results if isinstance(r, OutageRepair)]) == 1, results
    refusals = [r.message_dict for r in results if isinstance(r, ValidationError)]
    assert refusals == [{"outage": ["House control: this outage already has its repair recorded."]}], results
    assert OutageRepair.objects.count() == 1
    assert verify_chain().ok
