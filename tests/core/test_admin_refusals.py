"""The Django admin answers 400 when it refuses a change, as every other browser page and the API
do (cardroom.admin.RefusalStatusMixin): the same page with the refusal shown, nothing written.
Django's own admin answers 200. A valid post still redirects (302)."""

import pytest
from django.forms.models import model_to_dict

from cardroom.models import ChipDenomination, Membership, Table
from compliance.models import Threshold
from core.models import AuditEvent
from tests.factories import PASSWORD, admin_role_added
from tests.page_support import page

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
    said = "House control: Role: select a valid choice; croupier is not one of the available choices."
    return manager, url, admin_role_added(manager, site, "croupier"), said


def threshold_case(client, manager, site):
    data = {
        "code": "low_hold.ratio_21",
        "value": "five percent",
        "unit": "ratio",
        "citation": "ND 99-01.3-08-04(9)",
        "summary": "Twenty-one low hold",
        "effective_from": "2027-01-01",
    }
    return None, "/admin/compliance/threshold/add/", data, "House control: Value: enter a number."


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
    assert answer.status_code == 400
    assert "House control: Name is required; the record is not kept without it." in answer.content.decode()
    assert "This field is required" not in answer.content.decode()
    assert Group.objects.count() == groups


# --- Django's stock words name the field and House control (cardroom.admin.StockWordsNamedMixin) ---


def threshold_posted(**changed) -> dict:
    return {**threshold_case(None, None, None)[2], **changed}


@pytest.mark.parametrize(
    ("changed", "said", "bare"),
    [
        ({"value": "five percent"}, "House control: Value: enter a number.", "Enter a number."),
        (
            {"unit": "furlongs"},
            "House control: Unit: select a valid choice; furlongs is not one of the available choices.",
            "Select a valid choice.",
        ),
        (
            {"code": ""},
            "House control: Code is required; the record is not kept without it.",
            "This field is required.",
        ),
    ],
    ids=["a number", "a choice", "a blank"],
)
def test_the_admins_stock_words_name_the_field_and_house_control(client, django_user_model, changed, said, bare):
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    before = written_thresholds()
    answer = client.post("/admin/compliance/threshold/add/", threshold_posted(**changed))
    assert answer.status_code == 400
    assert said in page(answer) and bare not in page(answer)
    assert written_thresholds() == before


def written_thresholds() -> tuple[int, int]:
    return Threshold.objects.count(), AuditEvent.objects.count()


def test_an_inline_rows_stock_words_name_the_field_and_house_control(client, manager, site):
    """The inline row's refusal alone answers 400: the employee's own form is valid (core.forms.page_status
    reads the inline formsets as well as the form)."""
    client.force_login(manager.user)
    answer = client.post(f"/admin/cardroom/employee/{manager.pk}/change/", admin_role_added(manager, site, "croupier"))
    assert answer.status_code == 400
    assert answer.context["adminform"].form.errors == {}
    said = "House control: Role: select a valid choice; croupier is not one of the available choices."
    assert said in page(answer) and "Select a valid choice." not in page(answer)


# --- The admin's password pages (cardroom.admin.LoginAdmin, own_password_change) --------------

NEW = "Ochre-Lantern-Drift-58"


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ((NEW, NEW + "x"), "House control: the two passwords differ; type the same new password twice."),
        (("abc", "abc"), "House control: this password is too short. It must contain at least 8 characters."),
        (("", ""), "House control: Password is required; the record is not kept without it."),
    ],
    ids=["differ", "too weak", "blank"],
)
def test_a_refused_password_on_the_admins_change_password_page_answers_400(
    client, django_user_model, manager, typed, said
):
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    url = f"/admin/auth/user/{manager.user.pk}/password/"
    assert client.get(url).status_code == 200
    hashed, logged = password_of(manager), admin_log_count()
    answer = client.post(url, {"password1": typed[0], "password2": typed[1], "usable_password": "true"})
    assert answer.status_code == 400
    assert said in page(answer)
    assert password_of(manager) == hashed and admin_log_count() == logged


def test_a_kept_password_on_the_admins_change_password_page_redirects(client, django_user_model, manager):
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    url = f"/admin/auth/user/{manager.user.pk}/password/"
    answer = client.post(url, {"password1": NEW, "password2": NEW, "usable_password": "true"})
    assert answer.status_code == 302
    manager.user.refresh_from_db()
    assert manager.user.check_password(NEW)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ((PASSWORD, NEW, NEW + "x"), "House control: the two passwords differ; type the same new password twice."),
        ((PASSWORD, "abc", "abc"), "House control: this password is too common."),
        (("nope", NEW, NEW), "House control: Old password is not this login's password; type your current one."),
        (("", NEW, NEW), "House control: Old password is required; the record is not kept without it."),
    ],
    ids=["differ", "too weak", "wrong old password", "blank"],
)
def test_a_refused_password_on_the_admins_own_password_change_answers_400(client, manager, typed, said):
    client.force_login(manager.user)
    assert client.get("/admin/password_change/").status_code == 200
    hashed = password_of(manager)
    posted = dict(zip(("old_password", "new_password1", "new_password2"), typed, strict=True))
    answer = client.post("/admin/password_change/", posted)
    assert answer.status_code == 400
    assert said in page(answer)
    assert password_of(manager) == hashed


def test_ones_own_password_changed_in_the_admin_goes_on_to_done(client, manager):
    client.force_login(manager.user)
    posted = {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    answer = client.post("/admin/password_change/", posted)
    assert answer.status_code == 302 and answer["Location"] == "/admin/password_change/done/"
    manager.user.refresh_from_db()
    assert manager.user.check_password(NEW)


def password_of(employee) -> str:
    return type(employee.user).objects.get(pk=employee.user.pk).password


def admin_log_count() -> int:
    from django.contrib.admin.models import LogEntry

    return LogEntry.objects.count()
