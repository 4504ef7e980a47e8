import pytest

from cardroom.models import Role, Table
from core.models import AuditEvent


def test_gaming_manager_creates_a_table_through_the_api(client_for, manager, site):
    response = client_for(manager).post(
        "/api/v1/tables/",
        {"site": site.pk, "number": 3, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Table.objects.get(pk=response.json()["id"]).number == 3
    assert AuditEvent.objects.filter(action="table.created").count() == 1


def test_duplicate_table_number_is_a_400_naming_the_number(client_for, manager, table):
    response = client_for(manager).post(
        "/api/v1/tables/",
        {"site": table.site_id, "number": 1, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500},
        format="json",
    )
    assert response.status_code == 400
    assert "ND 99-01.3-08-02(1)" in response.json()["number"][0]


def test_dealer_may_not_create_a_table(client_for, cast, site):
    response = client_for(cast[Role.DEALER]).post(
        "/api/v1/tables/",
        {"site": site.pk, "number": 4, "game": "21", "min_wager_cents": 100, "max_wager_cents": 2500},
        format="json",
    )
    assert response.status_code == 403


@pytest.mark.django_db(transaction=True)
def test_transactional_flush_works_with_audit_rows(manager, site):
    from cardroom import services

    services.create_table(
        acting_user=manager.user, site=site, number=9, game="21", min_wager_cents=100, max_wager_cents=2500
    )
    assert AuditEvent.objects.count() == 1
