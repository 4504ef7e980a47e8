from datetime import date

from cardroom.models import Role
from surveillance import services
from surveillance.models import EquipmentChange
from tests.factories import TableFactory


def test_moving_a_camera_to_another_table_makes_a_sample_due(client_for, cast, site, table):
    other = TableFactory(site=site, number=2)
    camera = services.install_equipment(
        acting_user=cast[Role.GAMING_MANAGER].user,
        site=site,
        kind="camera",
        make_model="Dome HD",
        installed_on=date(2026, 11, 1),
        table=table,
    )
    response = client_for(cast[Role.SHIFT_MANAGER]).post(
        f"/api/v1/surveillance/equipment/{camera.pk}/move/",
        {"table": other.pk, "moved_on": "2026-11-10"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    camera.refresh_from_db()
    assert camera.table_id == other.pk
    change = EquipmentChange.objects.get(equipment=camera, kind="moved")
    assert change.sample_due_on == date(2026, 11, 24)


def test_a_camera_cannot_move_to_another_sites_table(client_for, cast, site, other_site, table):
    foreign = TableFactory(site=other_site, number=1)
    camera = services.install_equipment(
        acting_user=cast[Role.GAMING_MANAGER].user,
        site=site,
        kind="camera",
        make_model="Dome HD",
        installed_on=date(2026, 11, 1),
        table=table,
    )
    response = client_for(cast[Role.GAMING_MANAGER]).post(
        f"/api/v1/surveillance/equipment/{camera.pk}/move/",
        {"table": foreign.pk, "moved_on": "2026-11-10"},
        format="json",
    )
    assert response.status_code == 400 and "table" in response.json()
    camera.refresh_from_db()
    assert camera.table_id == table.pk
