"""Tip redemptions written before they kept their own gaming date (cage 0007) were all counted on
their declaration's: the migration gives them that date, and the table stays append-only.

On an empty database of its own (tests/scratch_database.py), migrated to what 0007 depends on,
written to through the historical models, then migrated through 0007 only (about 60 s: slow)."""

from datetime import UTC, date, datetime

import pytest
from django.db import DatabaseError

from tests.scratch_database import dependencies_of, migrate, scratch_database

MIGRATION = [("cage", "0007_tipredemption_gaming_date")]
DECLARED_ON = date(2026, 11, 2)
AT = datetime(2026, 11, 3, 5, 0, tzinfo=UTC)  # the dealer paid after midnight, on the gaming day's last hours


def _old_redemption(old) -> int:
    org = old.get_model("cardroom", "Organization").objects.create(name="Migrated Charities")
    site = old.get_model("cardroom", "Site").objects.create(organization=org, name="Old Lodge")
    staff = {}
    for initials in ("DL", "CA"):
        user = old.get_model("auth", "User").objects.create(username=initials.lower(), password="!")
        staff[initials] = old.get_model("cardroom", "Employee").objects.create(
            organization=org, user=user, initials=initials
        )
    declaration = old.get_model("cage", "TipDeclaration").objects.create(
        site=site, gaming_date=DECLARED_ON, dealer=staff["DL"], initials="DL", declared_at=AT, total_cents=500
    )
    redemption = old.get_model("cage", "TipRedemption").objects.create(
        declaration=declaration, redeemed_at=AT, cashier=staff["CA"], initials="CA", amount_cents=500
    )
    return redemption.pk


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_redemption_written_before_keeps_its_declarations_gaming_date_and_stays_append_only():
    with scratch_database():
        executor = migrate(dependencies_of(MIGRATION))
        old = executor.loader.project_state(list(executor.loader.applied_migrations)).apps
        pk = _old_redemption(old)

        executor = migrate(MIGRATION)
        new = executor.loader.project_state(MIGRATION).apps
        redemptions = new.get_model("cage", "TipRedemption").objects
        assert redemptions.get(pk=pk).gaming_date == DECLARED_ON
        with pytest.raises(DatabaseError):
            redemptions.filter(pk=pk).update(amount_cents=1)
        assert redemptions.get(pk=pk).amount_cents == 500
