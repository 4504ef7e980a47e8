"""The drop boxes and count settings page (/counts/drop-boxes/), a gaming manager's: the register
of the site's boxes (register, retire as counts.services allows), the box exchange and the
twenty-one auditor, with the service's refusals inline; other roles are refused."""

import pytest
from django.core.exceptions import ValidationError

from cardroom.models import Role
from core.models import AuditEvent
from counts import queries, services
from counts.models import BoxExchange, DropBox
from tests.conftest import ALL_ROLES
from tests.factories import TableFactory, make_person
from tests.page_support import as_user, assert_opens_only_for, page

from .conftest import EVENING, GAMING_DATE, remove_box

URL = "/counts/drop-boxes/"


@pytest.mark.parametrize("role", ALL_ROLES)
def test_only_a_gaming_manager_opens_the_page(client, cast, role):
    assert_opens_only_for(
        as_user(client, cast[role]).get(URL),
        allowed=role == Role.GAMING_MANAGER,
        refusal="House control: only a gaming manager may manage the drop boxes and count settings.",
    )


@pytest.mark.parametrize("role", [r for r in ALL_ROLES if r != Role.GAMING_MANAGER])
def test_no_other_role_retires_a_box_or_changes_the_settings(client, cast, boxes, role):
    user = as_user(client, cast[role])
    assert user.post(f"/counts/drop-boxes/{boxes[0].pk}/retire/").status_code == 403
    assert user.post(URL, {"action": "settings", "box_exchange": "dealer_shift"}).status_code == 403
    assert DropBox.objects.get(pk=boxes[0].pk).active
    assert queries.box_exchange(boxes[0].site) == BoxExchange.GAMING_DAY


def test_the_page_lists_the_boxes_with_their_state(client, manager, boxes, shift_manager, counters):
    remove_box(shift_manager, boxes[0], counters[0])
    text = page(as_user(client, manager).get(URL))
    assert "Drop box 1" in text and "holds uncounted cash" in text
    assert "Drop box 2" in text and "ready" in text
    assert 'href="/counts/boxes/"' in text  # custody stays on the boxes page


def test_a_gaming_manager_registers_a_box(client, manager, tables):
    response = as_user(client, manager).post(
        URL, {"action": "register", "table": tables[1].pk, "label": "B", "locks": 2}
    )
    assert response.status_code == 302
    box = DropBox.objects.get()
    assert (box.table, box.number, box.label, box.locks) == (tables[1], 2, "B", 2)


def test_a_box_registered_twice_is_refused_inline(client, manager, boxes, tables):
    response = as_user(client, manager).post(URL, {"action": "register", "table": tables[0].pk, "locks": 1})
    assert response.status_code == 400
    assert "already registered at this site" in page(response)
    assert DropBox.objects.count() == 2


def test_a_table_of_another_organization_is_not_offered_nor_accepted(client, manager, tables, stranger_site):
    foreign = TableFactory(site=stranger_site, number=1)
    response = as_user(client, manager).post(URL, {"action": "register", "table": foreign.pk, "locks": 1})
    assert response.status_code == 400
    assert "House control: Table: select a valid choice; that choice is not one of the available choices." in page(
        response
    )
    assert not DropBox.objects.exists()


def test_a_gaming_manager_retires_a_ready_box_and_it_is_placed_no_more(client, manager, boxes, shift_manager):
    response = as_user(client, manager).post(f"/counts/drop-boxes/{boxes[1].pk}/retire/")
    assert response.status_code == 302
    assert not DropBox.objects.get(pk=boxes[1].pk).active
    assert AuditEvent.objects.filter(action="drop_box.retired", object_id=str(boxes[1].pk)).exists()
    assert "retired" in page(client.get(URL))
    with pytest.raises(ValidationError, match="is retired"):
        services.place_drop_box(
            acting_user=shift_manager.user,
            drop_box=DropBox.objects.get(pk=boxes[1].pk),
            gaming_date=GAMING_DATE,
            at=EVENING,
        )


def test_a_box_holding_uncounted_cash_is_not_retired(client, manager, boxes, shift_manager, counters):
    remove_box(shift_manager, boxes[0], counters[0])
    response = as_user(client, manager).post(f"/counts/drop-boxes/{boxes[0].pk}/retire/")
    assert response.status_code == 400
    assert "ND 99-01.3-08-14(1): Drop box 1 still holds uncounted cash; count it first." in page(response)
    assert DropBox.objects.get(pk=boxes[0].pk).active


def test_a_box_on_its_table_is_not_retired(client, manager, boxes, shift_manager):
    services.place_drop_box(acting_user=shift_manager.user, drop_box=boxes[0], gaming_date=GAMING_DATE, at=EVENING)
    response = as_user(client, manager).post(f"/counts/drop-boxes/{boxes[0].pk}/retire/")
    assert response.status_code == 400
    assert "Drop box 1 is still on its table; record its removal first." in page(response)


def test_a_retired_box_is_not_retired_twice(client, manager, boxes):
    services.retire_drop_box(acting_user=manager.user, drop_box=boxes[1])
    response = as_user(client, manager).post(f"/counts/drop-boxes/{boxes[1].pk}/retire/")
    assert response.status_code == 400
    assert "House control: Drop box 2 is already retired." in page(response)


def test_another_sites_box_is_not_found(client, manager, org, other_site, stranger_site):
    other_box = services.register_drop_box(acting_user=manager.user, table=TableFactory(site=other_site, number=1))
    stranger_manager = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    stranger_box = services.register_drop_box(
        acting_user=stranger_manager.user, table=TableFactory(site=stranger_site, number=1)
    )
    user = as_user(client, manager)
    user.post("/switch-site/", {"site": org.sites.exclude(pk=other_site.pk).first().pk})
    for box in (other_box, stranger_box):
        assert user.post(f"/counts/drop-boxes/{box.pk}/retire/").status_code == 404
        assert DropBox.objects.get(pk=box.pk).active


def test_a_gaming_manager_saves_the_count_settings(client, manager, site, org):
    auditor = make_person(org, Role.AUDITOR)
    response = as_user(client, manager).post(
        URL, {"action": "settings", "box_exchange": "dealer_shift", "twenty_one_auditor": auditor.pk}
    )
    assert response.status_code == 302
    settings = queries.count_settings(site)
    assert settings.box_exchange == BoxExchange.DEALER_SHIFT and settings.twenty_one_auditor == auditor
    assert AuditEvent.objects.filter(action="count_settings.updated").exists()
    assert "Boxes exchanged: <strong>At each dealer change (one drop per dealer shift)</strong>" in page(
        client.get(URL)
    )


def test_another_organizations_person_is_not_accepted_as_the_auditor(client, manager, site, stranger_site):
    stranger = make_person(stranger_site.organization, Role.AUDITOR)
    response = as_user(client, manager).post(
        URL, {"action": "settings", "box_exchange": "gaming_day", "twenty_one_auditor": stranger.pk}
    )
    assert response.status_code == 400
    # the field's label in the North Dakota site's words for game 21
    assert "House control: Twenty-one auditor: select a valid choice;" in page(response)
    assert queries.count_settings(site).twenty_one_auditor is None


# --- the same through the API ------------------------------------------------------------------


def test_the_api_retires_a_box_with_the_pages_words_on_refusal(client_for, manager, boxes, shift_manager, counters):
    remove_box(shift_manager, boxes[0], counters[0])
    api = client_for(manager)
    refused = api.post(f"/api/v1/drop-boxes/{boxes[0].pk}/retire/", {}, format="json")
    assert refused.status_code == 400
    assert refused.json()["box"] == ["ND 99-01.3-08-14(1): Drop box 1 still holds uncounted cash; count it first."]
    retired = api.post(f"/api/v1/drop-boxes/{boxes[1].pk}/retire/", {}, format="json")
    assert retired.status_code == 200 and retired.json()["active"] is False


def test_the_api_refuses_other_roles_unknown_fields_and_other_organizations(
    client_for, cast, manager, boxes, stranger_site
):
    url = f"/api/v1/drop-boxes/{boxes[1].pk}/retire/"
    assert client_for(cast[Role.SHIFT_MANAGER]).post(url, {}, format="json").status_code == 403
    assert client_for(manager).post(url, {"active": False}, format="json").status_code == 400
    stranger_manager = make_person(stranger_site.organization, Role.GAMING_MANAGER)
    assert client_for(stranger_manager).post(url, {}, format="json").status_code == 404
    assert DropBox.objects.get(pk=boxes[1].pk).active


def test_the_auditor_setting_is_labelled_in_the_floors_words(client, manager, boxes):
    text = page(as_user(client, manager).get(URL))
    assert ">Twenty-one auditor<" in text and "Twenty one auditor" not in text
