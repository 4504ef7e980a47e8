"""A slip's site is its gaming day's site, guarded by the database itself (floor migration 0008):
the figures and the compliance scan find a site's slips through its gaming days."""

from datetime import date

import pytest
from django.db import IntegrityError, transaction

from cardroom.models import Role
from floor.models import Slip
from tests.compliance.test_providers import make_day, make_slip
from tests.factories import TableFactory


def test_a_slip_of_another_sites_gaming_day_is_refused_by_the_database(site, other_site, table, cast):
    day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    make_slip(day, table, 1, cast[Role.PIT_BOSS])  # the day's own site: accepted
    stray = Slip(
        site=other_site,
        kind="fill",
        number=1,
        table=TableFactory(site=other_site, number=7),
        gaming_day=day,
        game="21",
        table_number=7,
        prepared_at=day.opened_at,
        prepared_by=cast[Role.PIT_BOSS],
        total_cents=10_000,
    )
    with pytest.raises(IntegrityError, match="gaming day's site"), transaction.atomic():
        Slip.objects.bulk_create([stray])  # no save(): the database alone refuses it
    assert list(Slip.objects.values_list("site_id", flat=True)) == [site.pk]
