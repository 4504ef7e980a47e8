"""The surveillance demo builder: every required record at the busy site, and idempotent."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.demo import load_demo
from core.audit_verify import verify_chain
from floor.demo import mark_built
from surveillance import models, queries
from surveillance.demo import build_demo_surveillance

from .conftest import add_shift

MODELS = [
    models.SurveillanceStatus,
    models.Equipment,
    models.EquipmentChange,
    models.SampleSubmission,
    models.SampleEvaluation,
    models.VendorPurchase,
    models.Recording,
    models.ReviewLogEntry,
    models.Outage,
    models.OutageRepair,
    models.ReviewProgram,
    models.ReviewTask,
    models.ReviewEntry,
]


@pytest.fixture
def demo(db):
    data = load_demo()
    site = data["sites"]["busy"]
    now = timezone.now()
    days = set()
    for days_back in (1, 2, 4):
        for table in site.tables.filter(number__in=(1, 2)):
            start = now - timedelta(days=days_back, hours=5)
            days.add(add_shift(table, data["people"]["dealer"], start, start + timedelta(hours=3)).gaming_day)
    for day in days:  # as the floor's demo marks the days it builds: the only days the demo logs
        mark_built(day)
    return data


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


def test_the_busy_site_gets_every_kind_of_surveillance_record(demo):
    site, people = demo["sites"]["busy"], demo["people"]
    build_demo_surveillance(site, people=people)
    assert all(counts().values()), counts()
    today = timezone.localdate()
    assert queries.surveillance_required(site, today)
    assert verify_chain().ok  # every record the demo wrote is covered by its event


def test_every_day_of_activity_has_its_daily_review_log(demo):
    site = demo["sites"]["busy"]
    build_demo_surveillance(site, people=demo["people"])
    active = {(table_id, day) for table_id, day in _activity(site)}
    logged = set(models.ReviewLogEntry.objects.filter(site=site).values_list("table_id", "gaming_date"))
    assert active and active <= logged


def _activity(site):
    from floor.models import DealerShift

    for table_id, started_at in DealerShift.objects.filter(table__site=site).values_list("table_id", "started_at"):
        yield table_id, queries.gaming_date_of(site, started_at)


def test_one_outage_is_repaired_in_time_and_one_is_not(demo):
    build_demo_surveillance(demo["sites"]["busy"], people=demo["people"])
    late = [o.repair.repaired_at > queries.deadline_for(o).at for o in models.Outage.objects.select_related("repair")]
    assert sorted(late) == [False, True]


def test_building_twice_adds_nothing(demo):
    site, people = demo["sites"]["busy"], demo["people"]
    build_demo_surveillance(site, people=people)
    first = counts()
    build_demo_surveillance(site, people=people)
    assert counts() == first
