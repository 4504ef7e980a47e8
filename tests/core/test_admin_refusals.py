"""The Django admin answers 400 when it refuses a change, as every other browser page and the API
do (cardroom.admin.RefusalStatusMixin): the same page with the refusal shown, nothing written.
Django's own admin answers 200. A valid post still redirects (302)."""

import pytest
from django.forms.models import model_to_dict

from cardroom.models import ChipDenomination, Membership, Table
from compliance.models import Threshold
from core.models import AuditEvent
from tests.factories import admin_role_added

from .test_table_options import as_posted


def shown_form(client, url: str) -> dict:
    """The change form's values as a browser posts them back."""
    form = client.get(url).context["adminform"].form
    return as_posted({name: bound.value() for name, bound in form._bound_items()})


def table_case(client, manager, site):
    table = Table.objects.filter(site=site).first()
    url = f"/admin/cardroom/table/{table.pk}/change/"
    return table, url, {**shown_form(client, url), "max_wager_cents": 3000}, "ND 99-01.3-08-09(1)"


def chip_case(client, manager, site):
    chip = ChipDenomination.objects.filter(organization=manager.organization).order_by("value_cents").first()
    url = f"/admin/cardroom/chipdenomination/{chip.pk}/change/"
    changed = {**shown_form(client, url), "value_cents": chip.value_cents + 100}
    return chip, url, changed, "House control: a chip&#x27;s value cannot change"


def employee_case(client, manager, site):
    # An inline formset's row refused: a role no pack knows.
    url = f"/admin/cardroom/employee/{manager.pk}/change/"
    return manager, url, admin_role_added(manager, site, "croupier"), "Select a valid choice"


def threshold_case(client, manager, site):
    data = {
        "code": "low_hold.ratio_21",
        "value": "five percent",
        "unit": "ratio",
        "citation": "ND 99-01.3-08-04(9)",
        "summary": "Twenty-one low hold",
        "effective_from": "2027-01-01",
    }
    return None, "/admin/compliance/threshold/add/", data, "Enter a number"


CASES = {"table": table_case, "chip denomination": chip_case, "employee": employee_case, "threshold": threshold_case}


def written(row) -> tuple:
    """What a refused post must leave as it was: the row, the rows of each admin's model, the log."""
    counts = tuple(model.objects.count() for model in (Table, ChipDenomination, Membership, Threshold, AuditEvent))
    return (model_to_dict(type(row).objects.get(pk=row.pk)) if row is not None else None), counts


@pytest.mark.parametrize("superuser", [False, True], ids=["gaming manager", "superuser"])
@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_refused_admin_form_answers_400_shows_the_refusal_and_writes_nothing(
    client, django_user_model, manager, site, table, chips, case, superuser
):
    user = django_user_model.objects.create_superuser("root", password="x") if superuser else manager.user
    client.force_login(user)
    row, url, data, words = CASES[case](client, manager, site)
    before = written(row)
    answer = client.post(url, data)
    if case == "threshold" and not superuser:  # only a superuser adds a threshold (SharedReferenceAdmin)
        assert answer.status_code == 403
    else:
        assert answer.status_code == 400, answer.status_code
        assert words in answer.content.decode()
        assert answer.context["adminform"] is not None  # the same form, shown again
    assert written(row) == before


def test_a_valid_admin_form_still_redirects(client, manager, site, table):
    client.force_login(manager.user)
    url = f"/admin/cardroom/table/{table.pk}/change/"
    answer = client.post(url, {**shown_form(client, url), "max_wager_cents": 2000})
    assert answer.status_code == 302
    assert Table.objects.get(pk=table.pk).max_wager_cents == 2000


def test_reading_an_admin_form_is_200(client, manager, table):
    client.force_login(manager.user)
    assert client.get(f"/admin/cardroom/table/{table.pk}/change/").status_code == 200


def test_a_platform_admins_refused_form_answers_400_too(client, django_user_model):
    """The platform's tables (logins, groups...) are Django's own admins made superuser-only
    (cardroom.admin.SuperuserOnly), which refuse with the same 400."""
    from django.contrib.auth.models import Group

    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    groups = Group.objects.count()
    answer = client.post("/admin/auth/group/add/", {"name": ""})
    assert answer.status_code == 400 and "This field is required" in answer.content.decode()
    assert Group.objects.count() == groups
