"""A duplicate a user posts (a role, a relation, a drop box, a login, a threshold) is refused naming
the record, its fields and House control first, one wording on the setup pages, in the admin and in
the API (core.database_refusals.unique_named, the constraints' own cited messages): a 400, never
Django's bare "... with this ... already exists." or a constraint's uncited sentence, nothing written."""

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from cardroom import services
from cardroom.models import EmployeeRelation, Membership, Role
from compliance.models import Threshold
from core.database_refusals import already_recorded
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


def duplicate(client, org, site, first, url) -> tuple[str, dict]:
    """The first record made; where its duplicate is posted and what, the user who may post it
    there signed in."""
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
    return url, posted


@pytest.mark.parametrize(("first", "url", "said", "bare"), CASES.values(), ids=CASES.keys())
def test_a_duplicate_is_refused_naming_its_fields_and_house_control(client, org, site, first, url, said, bare):
    url, posted = duplicate(client, org, site, first, url)
    before = written()
    answer = client.post(url, posted)
    text = page(answer)
    assert answer.status_code == 400, text[:500]
    assert said in text
    assert bare not in text and "is violated" not in text and "unique set" not in text
    assert written() == before


def refused_in(answer) -> list[str]:
    """The relation's refusal: the API's non-field errors, or the employee page's relation form's."""
    if answer["Content-Type"].startswith("application/json"):
        return answer.json()["non_field_errors"]
    return list(answer.context["relation_form"].non_field_errors())


def skipping_the_check(relation, exclude=None):
    """The model's check of its constraints, for a copy that looked before the other was written."""


def to_self(client, manager, dealer, site):
    """Nothing made first: the relation posted names the dealer as their own relative (the API: the
    employee's page never offers the employee as their own relative, its choices leave them out)."""
    return {"employee": dealer.pk, "relative": dealer.pk, "kind": "sibling"}


RELATION_TO_SELF = "House control: an employee cannot be related to themselves."
RACES = {
    "page: a relation recorded": (related, "/setup/employees/{}/relation/add/", RELATION_TAKEN),
    "api: a relation recorded": (related, "/api/v1/employee-relations/", RELATION_TAKEN),
    "api: a relation to oneself": (to_self, "/api/v1/employee-relations/", RELATION_TO_SELF),
}


@pytest.mark.parametrize(("first", "url", "said"), RACES.values(), ids=RACES.keys())
def test_a_relation_past_the_check_is_refused_by_the_database_in_the_checks_own_words(
    client, org, site, first, url, said
):
    """Two copies of a relation sent together both pass the check (the second here as if it looked
    before the first was written) and the second meets the database's constraint, SQLite's or
    PostgreSQL's (the unique one; `relation_not_self`, whose message cited no rule on the check's
    path): refused in the very sentence the check says, House control first (never "(House
    control: the database keeps one copy)" after it), a 400, nothing written."""
    url, posted = duplicate(client, org, site, first, url)
    before = written()
    checked = client.post(url, posted)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(EmployeeRelation, "validate_constraints", skipping_the_check)
        raced = client.post(url, posted)
    assert (checked.status_code, raced.status_code) == (400, 400), page(raced)[:500]
    assert refused_in(checked) == refused_in(raced) == [said]
    assert written() == before


# The records the product names beginning with a "u" said "you" ("a user"); any other "u" is a vowel's
# sound ("an unverified ..."), as a, e, i and o are.
SAID_YOU = {"user"}


def test_every_record_is_named_with_the_article_of_its_first_sound():
    for model in apps.get_models():
        noun = str(model._meta.verbose_name)
        vowel = noun[:1].lower() in "aeiou" and noun.split()[0].lower() not in SAID_YOU
        label = model._meta.pk.verbose_name
        said = f"House control: {'an' if vowel else 'a'} {noun} with this {label} is already recorded."
        assert already_recorded(model, (model._meta.pk.name,)) == said


@pytest.mark.parametrize(
    ("noun", "article"),
    [("user", "a"), ("unverified drop box", "an"), ("unit", "a"), ("umbrella stand", "an"), ("outage", "an")],
)
def test_a_u_takes_an_unless_it_is_said_you(monkeypatch, noun, article):
    monkeypatch.setattr(DropBox._meta, "verbose_name", noun)
    assert (
        already_recorded(DropBox, ("site",)) == f"House control: {article} {noun} with this site is already recorded."
    )
