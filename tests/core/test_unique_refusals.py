"""A duplicate a user posts (a role, a relation, a drop box, a login, a threshold) is refused naming
the record, its fields and House control first, one wording on the setup pages, in the admin and in
the API (core.database_refusals.unique_named, the constraints' own cited messages): a 400, never
Django's bare "... with this ... already exists." or a constraint's uncited sentence, nothing written."""

import pytest
from django.contrib.auth import get_user_model

from cardroom import services
from cardroom.models import EmployeeRelation, Membership, Role
from compliance.models import Threshold
from core.models import AuditEvent
from counts import services as counts
from counts.models import DropBox
from tests.factories import TableFactory, make_person
from tests.page_support import page

from .test_admin_refusals import threshold_posted

ROLE_TAKEN = "House control: the employee already has this role at this site."
RELATION_TAKEN = "House control: an employee relation with this employee, relative and kind is already recorded."
BOX_TAKEN = "House control: a drop box with this number and label is already registered at this site."


# The first record of each case, made through its service (or the admin) before the duplicate.


def held(client, manager, dealer, site):
    """The dealer's role at the site (`make_person`): nothing more to make."""
    return {"employee": dealer.pk, "site": site.pk, "role": Role.DEALER}


def related(client, manager, dealer, site):
    services.add_relation(acting_user=manager.user, employee=dealer, relative=manager, kind="spouse")
    return {"employee": dealer.pk, "relative": manager.pk, "kind": "spouse"}


def boxed(client, manager, dealer, site):
    table = TableFactory(site=site, number=1)
    counts.register_drop_box(acting_user=manager.user, table=table)
    return {"table": table.pk}


def logged_in(client, manager, dealer, site):
    password = "Ochre-Lantern-Drift-58"
    return {"username": dealer.user.username, "password1": password, "password2": password, "usable_password": "true"}


def dated(client, manager, dealer, site):
    as_root(client)
    assert client.post("/admin/compliance/threshold/add/", threshold_posted(value="0.05")).status_code == 302
    return threshold_posted(value="0.06")


def as_root(client):
    root = get_user_model().objects.filter(username="root").first()
    client.force_login(root or get_user_model().objects.create_superuser("root", password="x"))


# Each duplicate: its first record, where it is posted again (the employee's address where the
# page is the employee's), the words it is refused in, and the bare words it was refused in.
CASES = {
    "page: a role held": (held, "/setup/employees/{}/membership/add/", ROLE_TAKEN, "The employee already has"),
    "page: a relation recorded": (related, "/setup/employees/{}/relation/add/", RELATION_TAKEN, "already exists"),
    "page: a drop box registered": (boxed, "/counts/drop-boxes/", BOX_TAKEN, "A drop box with this number"),
    "admin: a role held": (held, "/admin/cardroom/membership/add/", ROLE_TAKEN, "The employee already has"),
    "admin: a relation recorded": (related, "/admin/cardroom/employeerelation/add/", RELATION_TAKEN, "already exists"),
    "admin: a login taken": (
        logged_in,
        "/admin/auth/user/add/",
        "House control: a login name is unique whatever its case; the login",  # its name quoted after
        "A user with that username already exists.",
    ),
    "admin: a threshold dated twice": (
        dated,
        "/admin/compliance/threshold/add/",
        "House control: a threshold with this code and effective from is already recorded.",
        "already exists",
    ),
    "api: a role held": (held, "/api/v1/memberships/", ROLE_TAKEN, "The employee already has"),
    "api: a relation recorded": (related, "/api/v1/employee-relations/", RELATION_TAKEN, "unique set"),
    "api: a drop box registered": (boxed, "/api/v1/drop-boxes/", BOX_TAKEN, "A drop box with this number"),
}


def written() -> tuple[int, ...]:
    models = (Membership, EmployeeRelation, DropBox, get_user_model(), Threshold, AuditEvent)
    return tuple(model.objects.count() for model in models)


@pytest.mark.parametrize(("first", "url", "said", "bare"), CASES.values(), ids=CASES.keys())
def test_a_duplicate_is_refused_naming_its_fields_and_house_control(client, org, site, first, url, said, bare):
    manager = make_person(org, Role.GAMING_MANAGER)
    dealer = make_person(org, Role.DEALER, site)
    posted = first(client, manager, dealer, site)
    if url.startswith("/setup/"):  # the employee's own page: the employee is its address
        url, posted = url.format(dealer.pk), {k: v for k, v in posted.items() if k != "employee"}
    if url == "/counts/drop-boxes/":
        posted = {**posted, "action": "register", "locks": 1}
    if first in (logged_in, dated):
        as_root(client)
    else:
        client.force_login(manager.user)
    before = written()
    answer = client.post(url, posted)
    text = page(answer)
    assert answer.status_code == 400, text[:500]
    assert said in text
    assert bare not in text and "is violated" not in text and "unique set" not in text
    assert written() == before
