"""Every page a gaming manager sets the card room up on answers a refused POST as the API does:
HTTP 400, the page again with the message inline (naming the field and its rule), and nothing
written (core.forms.page_status). The setup pages of sites, tables, chips and employees, and a
fee posted at a site whose revenue is no table fee, answered 200 with the message shown.

Django's stock words name the field and House control too (core.forms.NamesTheRule, `STOCK`): a
value that is not one of a drop box's choices, a number that is no number or below its bound, a
text over its length, posted to a setup, floor, cage or count page. They showed Django's bare
"Select a valid choice." and "Enter a whole number."."""

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.utils.html import escape

from approvals.models import WrittenProcedure
from cage.models import BankCount
from cardroom.models import (
    ChipDenomination,
    Employee,
    EmployeeRelation,
    Membership,
    Role,
    SigningPin,
    Site,
    Station,
    Table,
)
from core.models import AuditEvent
from counts.models import CountSettings, DropBox
from fees.models import FeeCollection
from floor.models import SlipBook
from surveillance.models import Equipment, ReviewProgram, SpecialEvent, SurveillanceStatus
from tournaments.models import Tournament

from .test_chip_marking import FORM as CHIP
from .test_table_options import as_posted, body

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Refused:
    """A page, what is posted to it, the model it would write and the words its refusal shows."""

    url: Callable  # (cast) -> address
    data: Callable  # (client, cast, site) -> the form as posted
    model: type
    words: str


def _at(url: str) -> Callable:
    return lambda cast: url


def _posted(**fields) -> Callable:
    """The form as posted; a callable value is read from (cast, site)."""
    return lambda client, cast, site: {k: v(cast, site) if callable(v) else v for k, v in fields.items()}


def _site(cast, site) -> int:
    return site.pk


def _dealer(cast, site=None) -> int:
    return cast[Role.DEALER].pk


def _pit_boss(cast, site) -> int:
    return cast[Role.PIT_BOSS].pk


def _a_table_over_the_limit(client, cast, site) -> dict:
    """The new table form as the browser shows it, filled in, with a $30 maximum wager."""
    shown = client.get("/setup/tables/new/").context["form"]
    form = as_posted({**{name: bound.value() for name, bound in shown._bound_items()}, **body(site, "ND")})
    return {**form, "number": "2", "min_wager_cents": "1", "max_wager_cents": "30"}


DAY = "2026-07-01"
SITE = {"jurisdiction": "ND", "time_zone": "America/Chicago", "business_day_start_hour": 6, "late_entry_minutes": 60}
ROLE_ADDED, RELATION_ADDED = "/setup/employees/{}/membership/add/", "/setup/employees/{}/relation/add/"
REQUIRED = "House control: {} is required"

PAGES = {
    "sites": Refused(_at("/setup/sites/new/"), _posted(name="", **SITE), Site, REQUIRED.format("Name")),
    "tables": Refused(_at("/setup/tables/new/"), _a_table_over_the_limit, Table, "ND 99-01.3-08-09(1): a wager limit"),
    "chips": Refused(_at("/setup/chips/new/"), _posted(**{**CHIP, "marking": ""}), ChipDenomination,
                     "ND 99-01.3-08-03(2): each chip bears the organization's name"),
    "employees": Refused(_at("/setup/employees/new/"), _posted(name="Pat Doe", username=""), Employee,
                         REQUIRED.format("Login name")),
    "roles": Refused(lambda cast: ROLE_ADDED.format(_dealer(cast)), _posted(role="", site=_site), Membership,
                     REQUIRED.format("Role")),
    "relations": Refused(lambda cast: RELATION_ADDED.format(_dealer(cast)), _posted(kind="", relative=_pit_boss),
                         EmployeeRelation, REQUIRED.format("Kind")),
    "stations": Refused(_at("/administration/stations/"),
                        _posted(site=_site, name="Pit 2", kind="pit", username="", password="x"), Station,
                        REQUIRED.format("Login")),
    "signing PINs": Refused(_at("/signing-pin/"), _posted(employee=_dealer, pin="12"), SigningPin,
                            "House control: a PIN is 6 to 12 digits"),
    "locked accounts": Refused(_at("/administration/locked-accounts/"), _posted(unlock="", employee=""), AuditEvent,
                               "House control: choose a login or a signing PIN to unlock."),
    "drop boxes": Refused(_at("/counts/drop-boxes/"), _posted(action="register", table="", number="3"), DropBox,
                          REQUIRED.format("Table")),
    "written procedures": Refused(_at("/approvals/procedures/"),
                                  _posted(kind="", text="Shuffle and cut as posted.", effective_on=DAY),
                                  WrittenProcedure, REQUIRED.format("Procedure")),
    "surveillance status": Refused(_at("/surveillance/"), _posted(required="on", since=DAY, reason=""),
                                   SurveillanceStatus, REQUIRED.format("Reason")),
    "surveillance equipment": Refused(_at("/surveillance/equipment/"),
                                      _posted(form="install", kind="camera", make_model="", installed_on=DAY),
                                      Equipment, REQUIRED.format("Make and model")),
    "video review programs": Refused(_at("/surveillance/programs/"), _posted(start_date=DAY, reason=""),
                                     ReviewProgram, REQUIRED.format("Reason")),
    "special events": Refused(_at("/surveillance/special-events/"),
                              _posted(name="", first_day=DAY, last_day="2026-07-02"), SpecialEvent,
                              REQUIRED.format("Name")),
    "tournaments": Refused(_at("/tournaments/new/"), _posted(name="Summer Cup", gaming_date=DAY, entry_fee_cents="20"),
                           Tournament, REQUIRED.format("Length of play")),
    "bank": Refused(_at("/cage/"), _posted(form="count", gaming_date="", kind="start"), BankCount,
                    REQUIRED.format("Gaming date")),
    "table fees": Refused(_at("/fees/"), _posted(table="", basis="per_seat", rate_cents="3"), FeeCollection,
                          "House control: table fees are not the revenue of"),
}  # fmt: skip


def _a_table_numbered(number: str) -> Callable:
    """The new table form as the browser shows it, filled in, numbered `number`."""
    return lambda client, cast, site: {**_a_table_over_the_limit(client, cast, site), "number": number}


def _register_box(locks: str, label: str = "") -> Callable:
    return lambda client, cast, site: {
        "action": "register",
        "table": Table.objects.get(site=site).pk,
        "locks": locks,
        "label": label,
    }


NOT_ONE = "House control: {}: select a valid choice; {} is not one of the available choices."
SLIP_BOOK = "/floor/slip-books/"

STOCK = {
    "count settings' box exchange": Refused(_at("/counts/drop-boxes/"), _posted(action="settings", box_exchange="weekly"),
                                            CountSettings, NOT_ONE.format("Drop box exchanged", "weekly")),
    "a drop box's locks": Refused(_at("/counts/drop-boxes/"), _register_box("3"), DropBox, NOT_ONE.format("Locks", "3")),
    "a drop box's label": Refused(_at("/counts/drop-boxes/"), _register_box("1", "A" * 11), DropBox,
                                  "House control: Ensure Label has at most 10 characters (it has 11)."),
    "a slip book's number, no number": Refused(_at(SLIP_BOOK), _posted(kind="fill", first_number="one", last_number="50"),
                                               SlipBook, "House control: First printed number: enter a whole number."),
    "a slip book's number, below 1": Refused(_at(SLIP_BOOK), _posted(kind="fill", first_number="0", last_number="50"),
                                             SlipBook, "House control: Ensure First printed number is greater than or equal to 1."),
    "a slip book's series": Refused(_at(SLIP_BOOK), _posted(kind="marker", first_number="1", last_number="50"),
                                    SlipBook, NOT_ONE.format("Series", "marker")),
    "a bank count's kind": Refused(_at("/cage/"), _posted(form="count", gaming_date=DAY, kind="middle"), BankCount,
                                   NOT_ONE.format("Kind", "middle")),
    "a table's number": Refused(_at("/setup/tables/new/"), _a_table_numbered("two"), Table,
                                "House control: Number: enter a whole number."),
}  # fmt: skip


@pytest.mark.parametrize("kind", [*PAGES, *STOCK])
def test_a_refused_post_answers_400_with_its_message_inline_and_writes_nothing(client, cast, site, table, kind):
    refused = {**PAGES, **STOCK}[kind]
    client.force_login(cast[Role.GAMING_MANAGER].user)
    data = refused.data(client, cast, site)
    before = (refused.model.objects.count(), AuditEvent.objects.count())
    answer = client.post(refused.url(cast), data)
    assert answer.status_code == 400, (kind, answer.status_code, answer.content.decode()[:2000])
    assert escape(refused.words) in answer.content.decode(), answer.content.decode()
    assert (refused.model.objects.count(), AuditEvent.objects.count()) == before
