"""A table's card checks, where the site's pack states them (floor.rules.CARD_CHECK_RULES): its
decks approved by a dealer when the cards are brought to it, or brought back (ND 99-01.3-08-07(1)),
and its dealing shoe inspected by a dealer or shift manager before the day's activity (08-07(2))."""

from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from cardroom.access import require_role
from cardroom.models import Employee, Game, Site, Table
from core import acts, moments
from core.audit import record_site_event as _audit
from core.audit import snapshot

from .. import queries, rules
from ..models import CardCheck, GamingDay
from .steps import held_open

WHAT = {"decks_approved": "approval of the decks", "shoe_inspected": "inspection of the dealing shoe"}


def record_card_check(
    *,
    acting_user,
    table: Table,
    kind: str,
    checked_by: Employee | None = None,
    decks: int | None = None,
    at: datetime | None = None,
) -> CardCheck:
    """Record that `checked_by` (default: the acting employee) approved the decks of `table`
    (`decks`, default the table's) or inspected its dealing shoe, at `at` (the paper's time, naive
    for the site's local time) or now, in the site's open gaming day. A shift manager records
    anyone's check; a dealer their own. Refused, citing the check's rule at the site, where the
    site's pack states no such check, with no gaming day open, by someone who may not make the
    check, or with decks out of the table's range."""
    site = table.site
    rule = _rule(kind, site)
    citation = rule.at(site)
    access = require_role(
        acting_user, site, *rules.CARD_CHECK_RECORDERS, action=f"record the {WHAT[kind]}", rule=citation
    )
    actor = acts.acting_employee(access)
    checker = checked_by or actor
    if checker != actor and not access.has_role(site.pk, *rules.FLOOR_SUPERVISORS):
        raise PermissionDenied(
            f"{rules.CARD_CHECK_RULES[kind].at(site)}: a dealer records their own check; a shift manager records "
            "another's."
        )
    _require_twenty_one(table, citation)
    checked_as = _capacity(checker, site, kind, citation)
    decks = _decks(kind, decks, table, citation)
    given = at
    at = acts.moment(at, "checked_at", site=site, rule=citation)
    with transaction.atomic():
        day = _open_day(site, citation)
        moments.occurred_at(
            site,
            given,
            field="checked_at",
            rule=citation,
            gaming_date=day.gaming_date,
            now=at if given is None else None,
        )
        check = CardCheck.objects.create(
            gaming_day=day,
            table=table,
            kind=kind,
            decks=decks,
            checked_by=checker,
            checked_as=checked_as,
            checked_at=at,
            recorded_by=actor,
        )
        _audit(acting_user, f"card_check.{kind}", check, site=site, after=snapshot(check))
    return check


def _rule(kind: str, site: Site):
    """The check's rule, refused where `kind` is no check or the site's pack states no such check."""
    rule = rules.CARD_CHECK_RULES.get(kind)
    if rule is None:
        choices = " or ".join(f'"{k}"' for k in rules.CARD_CHECK_RULES)
        raise ValidationError({"kind": f"{rules.DECKS_APPROVED.at(site)}: a card check is {choices}."})
    if not rule.applies(site):
        raise ValidationError(
            {"table": f"{rule.at(site)}: the law of {site}'s jurisdiction asks for no such record of a table's cards."}
        )
    return rule


def _require_twenty_one(table: Table, citation: str) -> None:
    if table.game != Game.TWENTY_ONE or not table.active:
        raise ValidationError(
            {"table": f"{citation}: cards and shoes are checked at an active twenty-one table; {table} is not one."}
        )


def _capacity(checker: Employee, site: Site, kind: str, citation: str) -> str:
    """The role `checker` makes the check in: a dealer (decks, shoe) or a shift manager (shoe),
    held at the site; refused naming who may."""
    allowed = rules.CARD_CHECKERS[kind]
    held = queries.roles_held(checker, site) & allowed if checker.organization_id == site.organization_id else set()
    if not checker.active or not held:
        who = "a dealer" if kind == "decks_approved" else "a dealer or shift manager"
        raise ValidationError(
            {"checked_by": f"{citation}: {checker} is not an active employee of {site} who may do it; only {who} may."}
        )
    return next(str(role) for role in rules.SIGNING_ORDER if role in held)


def _decks(kind: str, decks, table: Table, citation: str) -> int | None:
    """The decks approved: the table's by default, from 1 to the table's number of decks (*assumed*:
    the cards brought to a table are those it deals); a shoe's inspection counts none."""
    if kind != "decks_approved":
        if decks is not None:
            raise ValidationError({"decks": f"{citation}: decks are counted when decks are approved, not a shoe."})
        return None
    if decks is None:
        return table.decks
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= table.decks:
        raise ValidationError(
            {
                "decks": f"{citation}: {table} deals {table.decks} decks; the decks approved are 1 to {table.decks}, not {decks}."
            }
        )
    return decks


def _open_day(site: Site, citation: str) -> GamingDay:
    day = held_open(queries.open_gaming_day(site))
    if day is None:
        raise ValidationError(
            {
                "table": f"{citation}: no gaming day is open at {site}; a check is recorded in the open gaming day "
                "(a closed day keeps its records as closed). Open the day first."
            }
        )
    day.site = site  # the day is the site's: what its record's audit row reads, not re-read
    return day
