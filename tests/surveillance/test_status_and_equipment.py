"""Site status (ND 99-01.3-08-04), equipment changes with sample recordings due in 14 days
(08-04(11)), their evaluation (SFN 19857), and vendor purchases with deferred payment (08-04(10))."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.models import Role
from surveillance import queries, services
from surveillance.models import Equipment, EquipmentChange, SampleEvaluation, VendorPurchase
from tests.factories import TableFactory


def test_a_site_requires_surveillance_from_the_date_set(manager, site):
    services.set_surveillance_status(manager.user, site, True, date(2026, 2, 14), None, "Q3+Q4 GP averaged $12,400")
    assert not queries.surveillance_required(site, date(2026, 2, 13))
    assert queries.surveillance_required(site, date(2026, 2, 14))


def test_a_later_status_replaces_the_earlier_one_from_its_date(manager, site):
    services.set_surveillance_status(manager.user, site, True, date(2026, 1, 1), date(2026, 1, 20), "Required")
    services.set_surveillance_status(manager.user, site, False, date(2026, 7, 1), None, "GP fell below $10,000")
    assert queries.surveillance_required(site, date(2026, 6, 30))
    assert not queries.surveillance_required(site, date(2026, 7, 1))


def test_special_event_tables_are_exempt_while_on_the_site_for_an_event(manager, site, table):
    services.set_surveillance_status(manager.user, site, True, date(2026, 1, 1), None, "Required")
    event_table = TableFactory(site=site, number=9, location="special_event")
    services.record_special_event(
        acting_user=manager.user, site=site, name="Winter fair", first_day=date(2026, 2, 27), last_day=date(2026, 3, 2)
    )
    assert queries.table_requires_surveillance(table, date(2026, 3, 1))
    assert not queries.table_requires_surveillance(event_table, date(2026, 3, 1))
    assert queries.table_requires_surveillance(event_table, date(2026, 3, 3))  # no event covers it


def test_only_a_gaming_manager_sets_the_status(cast, site):
    with pytest.raises(PermissionDenied):
        services.set_surveillance_status(cast[Role.SHIFT_MANAGER].user, site, True, date(2026, 1, 1), None, "x")


@pytest.fixture
def camera(shift_manager, site, table):
    return services.install_equipment(
        acting_user=shift_manager.user,
        site=site,
        table=table,
        kind="camera",
        make_model="Axis P3245",
        serial_number="A1",
        installed_on=date(2026, 3, 1),
    )


def test_installing_a_camera_makes_a_sample_due_in_14_days(camera):
    change = EquipmentChange.objects.get(equipment=camera)
    assert change.kind == "installed" and change.sample_due_on == date(2026, 3, 15)


def test_replacing_equipment_retires_the_old_and_makes_a_sample_due(shift_manager, site, table, camera):
    new = services.install_equipment(
        acting_user=shift_manager.user,
        site=site,
        table=table,
        kind="camera",
        make_model="Axis P3265",
        installed_on=date(2026, 4, 1),
        replaces=camera,
    )
    camera.refresh_from_db()
    assert (camera.removed_on, camera.replaced_by) == (date(2026, 4, 1), new)
    assert EquipmentChange.objects.get(equipment=new).kind == "replaced"


def test_moving_a_camera_to_another_table_makes_a_sample_due(shift_manager, site, camera):
    other = TableFactory(site=site, number=2)
    services.move_equipment(acting_user=shift_manager.user, equipment=camera, table=other, moved_on=date(2026, 5, 1))
    assert Equipment.objects.get(pk=camera.pk).table == other
    assert EquipmentChange.objects.filter(kind="moved", sample_due_on=date(2026, 5, 15)).exists()


def test_a_table_move_or_site_acquisition_makes_a_sample_due(shift_manager, site, table):
    change = services.record_site_change(
        acting_user=shift_manager.user, site=site, table=table, kind="table_moved", changed_on=date(2026, 6, 1)
    )
    assert change.sample_due_on == date(2026, 6, 15)


def test_a_resubmission_follows_an_unsatisfactory_evaluation_and_points_back(shift_manager, camera):
    change = EquipmentChange.objects.get(equipment=camera)
    first = services.submit_sample(acting_user=shift_manager.user, change=change, submitted_on=date(2026, 3, 10))
    with pytest.raises(ValidationError, match="waiting for its evaluation"):
        services.submit_sample(acting_user=shift_manager.user, change=change, submitted_on=date(2026, 3, 11))
    evaluation = services.record_sample_evaluation(
        acting_user=shift_manager.user,
        submission=first,
        evaluated_on=date(2026, 3, 20),
        outcome="resubmit",
        findings="Chip tray out of focus",
    )
    assert evaluation.form_reference == "SFN 19857"
    second = services.submit_sample(acting_user=shift_manager.user, change=change, submitted_on=date(2026, 3, 25))
    assert second.resubmission_of == first
    services.record_sample_evaluation(
        acting_user=shift_manager.user, submission=second, evaluated_on=date(2026, 4, 2), outcome="approved"
    )
    assert SampleEvaluation.objects.filter(outcome="approved").count() == 1
    with pytest.raises(ValidationError, match="already approved"):
        services.submit_sample(acting_user=shift_manager.user, change=change, submitted_on=date(2026, 4, 3))


def test_an_approved_vendor_must_have_half_the_price_deferred(shift_manager, site):
    with pytest.raises(ValidationError) as refusal:
        services.record_vendor_purchase(
            acting_user=shift_manager.user,
            site=site,
            vendor="Dakota Video",
            description="Camera kit",
            purchased_on=date(2026, 3, 1),
            price_cents=120_000,
            deferred_cents=59_999,
        )
    assert refusal.value.message_dict["deferred_cents"][0].startswith("ND 99-01.3-08-04(10):")
    purchase = services.record_vendor_purchase(
        acting_user=shift_manager.user,
        site=site,
        vendor="Dakota Video",
        description="Camera kit",
        purchased_on=date(2026, 3, 1),
        price_cents=120_000,
        deferred_cents=60_000,
    )
    assert VendorPurchase.objects.get() == purchase


def test_another_vendor_needs_no_deferral(shift_manager, site):
    purchase = services.record_vendor_purchase(
        acting_user=shift_manager.user,
        site=site,
        vendor="Lodge No. 9",
        approved_vendor=False,
        description="Used dome",
        purchased_on=date(2026, 3, 1),
        price_cents=5_000,
        deferred_cents=0,
    )
    assert purchase.pk


@pytest.mark.parametrize("role", [Role.PIT_BOSS, Role.DEALER, Role.AUDITOR])
def test_only_managers_install_equipment(cast, site, table, role):
    with pytest.raises(PermissionDenied):
        services.install_equipment(
            acting_user=cast[role].user,
            site=site,
            table=table,
            kind="camera",
            make_model="X",
            installed_on=date(2026, 3, 1),
        )
