"""The hooks through which a higher layer answers a lower one (.importlinter, core.hooks): every
hook is in one registry, each is answered when the higher app loads, asking one that has no
answer raises (none allows everything meanwhile), and startup fails while one is missing."""

from datetime import UTC, date, datetime

import pytest
from django.core.checks import run_checks
from django.core.exceptions import ImproperlyConfigured, ValidationError

from accounting.amendments import amend_with_tournament_void
from accounting.queries import closed_dates, closed_days, closed_on, closed_reason, collecting_days
from accounting.rules import books_closers
from accounting.summaries import is_books_day
from cage.queries import chips_exist_at, chips_exist_sql
from cage.queries import tip_status as cage_tip_status
from cardroom import chip_rules, role_grants, site_keeps, table_rules, wager_caps
from cardroom import models as cardroom_models
from cardroom.navigation import party_of
from compliance.models import Threshold
from compliance.thresholds import refuse_backdating
from core import audit_anchors, citations, closing, figure_days, hooks
from counts import rules as counts_rules
from fees import rules as fees_rules
from floor import chip_log, open_items, pit_terminal, seating, tips
from surveillance.services import check_wager_under_surveillance_caps

# Every hook, who asks it and the app that answers it.
EVERY_HOOK = {
    "row_events": "core",
    "access": "cardroom",
    "site_jurisdiction": "cardroom",
    "citations": "packs",
    "jurisdictions": "packs",
    "table_rules": "packs",
    "table_options": "packs",
    "table_defaults": "packs",
    "licensed_table_values": "approvals",
    "table_games": "packs",
    "chip_law": "packs",
    "table_checks": "approvals",
    "fixed_table_options": "packs",
    "employee_identifier": "packs",
    "employee_identifier_absent": "packs",
    "documented_table_values": "approvals",
    "house_chips": "floor",
    "drop_boxes": "counts",
    "books_closed": "accounting",
    "tournament_void": "accounting",
    "closed_dates": "accounting",
    "closed_days": "accounting",
    "collecting_days": "accounting",
    "closed_on": "accounting",
    "books_day": "accounting",
    "expected_deposit": "accounting",
    "books_closers": "accounting",
    "day_changed": "accounting",
    "day_changed_sql": "accounting",
    "wager_cap": "surveillance",
    "tip_status": "cage",
    "chips_exist": "cage",
    "chips_exist_sql": "cage",
    "tips_flag": "compliance",
    "open_items": "counts",
    "carried_now": "counts",
    "dealer_seated": "counts",
    "dealer_shift_ending": "surveillance",
    "duty_period_ending": "counts",
    "table_shift_recorded": "surveillance",
    "role_grants": "counts",
    "hold_thresholds": "compliance",
    "quarter_filed": "statefiling",
    "chains_anchored": "statefiling",
    "registry_check": "statefiling",
    "registry_anchors": "statefiling",
    "party": "registry",
    "report_digests": "reports",
    "filing_amended": "compliance",
    "tournament_fee_flag": "compliance",
    "amendment_recorded": "statefiling",
    "report_pdf": "reports",
    "session_licences": "approvals",
    "count_settings_warnings": "compliance",
    "pit_fee_step": "fees",
    "dealer_change_box": "counts",
    "threshold_dated": "compliance",
}

# How a lower layer asks each hook, through its own module (as the code does).
ASKED = {
    "row_events": lambda: hooks.ROW_EVENTS([object()]),
    "access": lambda: hooks.ACCESS(object()),
    "site_jurisdiction": lambda: hooks.SITE_JURISDICTION(1),
    "citations": lambda: citations.stated("core.retention", "ND"),
    "jurisdictions": lambda: cardroom_models.jurisdiction_choices(),
    "table_rules": lambda: table_rules.validate_table(object()),
    "table_options": lambda: table_rules.table_fields("ND"),
    "table_defaults": lambda: table_rules.table_defaults("ND", {}),
    "licensed_table_values": lambda: table_rules.licensed_values(object()),
    "table_games": lambda: table_rules.table_games("ND"),
    "chip_law": lambda: chip_rules.law_at("ND"),
    "table_checks": lambda: hooks.TABLE_CHECKS.answers(),
    "fixed_table_options": lambda: table_rules.fixed_table_options("ND"),
    "employee_identifier": lambda: site_keeps.employee_identifier("ND"),
    "employee_identifier_absent": lambda: site_keeps.employee_identifier_absent("ND"),
    "documented_table_values": lambda: table_rules.documented_values(object()),
    "house_chips": lambda: site_keeps.house_chips("ND"),
    "drop_boxes": lambda: site_keeps.keeps_drop_boxes("ND"),
    "books_closed": lambda: closing.closed_reason(1, date(2026, 11, 2)),
    "tournament_void": lambda: hooks.TOURNAMENT_VOID(object()),
    "closed_dates": lambda: closing.closed_dates(1, [date(2026, 11, 2)]),
    "closed_days": lambda: closing.closed_days([1], date(2026, 11, 2), date(2026, 11, 2)),
    "collecting_days": lambda: closing.collecting_days([1], date(2026, 11, 2), date(2026, 11, 2)),
    "closed_on": lambda: closing.closed_on(),
    "books_day": lambda: closing.is_books_day(1, date(2026, 11, 2)),
    "expected_deposit": lambda: closing.expected_deposit(),
    "books_closers": lambda: closing.books_closers(),
    "day_changed": lambda: figure_days.day_changed(1, date(2026, 11, 2)),
    "day_changed_sql": lambda: figure_days.day_changed_sql(1, date(2026, 11, 2)),
    "wager_cap": lambda: wager_caps.check_max_wager(object(), 10_000),
    "tip_status": lambda: tips.tip_status(object(), object(), datetime(2026, 11, 2, tzinfo=UTC)),
    "chips_exist": lambda: chip_log.chips_exist(1, date(2026, 11, 2)),
    "chips_exist_sql": lambda: chip_log.chips_exist_sql("postgresql"),
    "tips_flag": lambda: hooks.TIPS_FLAG.answers(),
    "open_items": lambda: hooks.OPEN_ITEMS.answers(),
    "carried_now": lambda: hooks.CARRIED_NOW.answers(),
    "dealer_seated": lambda: seating.refuse_seating(
        object(), object(), date(2026, 11, 2), datetime(2026, 11, 2, tzinfo=UTC)
    ),
    "dealer_shift_ending": lambda: seating.refuse_shift_end(
        object(), object(), datetime(2026, 11, 2, tzinfo=UTC), datetime(2026, 11, 2, 1, tzinfo=UTC), "ended_at"
    ),
    "table_shift_recorded": lambda: seating.refuse_table_shift(
        object(), object(), datetime(2026, 11, 2, tzinfo=UTC), None, "started_at"
    ),
    "duty_period_ending": lambda: seating.refuse_duty_end(
        object(), object(), datetime(2026, 11, 2, tzinfo=UTC), datetime(2026, 11, 2, 1, tzinfo=UTC)
    ),
    "role_grants": lambda: role_grants.check_role_grant(object()),
    "hold_thresholds": lambda: hooks.HOLD_THRESHOLDS(),
    "quarter_filed": lambda: hooks.QUARTER_FILED.answers(),
    "chains_anchored": lambda: hooks.CHAINS_ANCHORED.answers(),
    "registry_check": lambda: audit_anchors.check_against_registries(1),
    "registry_anchors": lambda: audit_anchors.registry_anchors(1, "org-1", 1),
    "party": lambda: party_of(object()),
    "report_digests": lambda: hooks.REPORT_DIGESTS.answers(),
    "filing_amended": lambda: hooks.FILING_AMENDED(object()),
    "tournament_fee_flag": lambda: hooks.TOURNAMENT_FEE_FLAG(object()),
    "amendment_recorded": lambda: hooks.AMENDMENT_RECORDED.answers(),
    "report_pdf": lambda: hooks.REPORT_PDF(1, "0" * 64),
    "session_licences": lambda: fees_rules.session_licences(object(), date(2026, 11, 2)),
    "count_settings_warnings": lambda: counts_rules.settings_warnings(object(), "gaming_day"),
    "pit_fee_step": lambda: pit_terminal.fee_step(object(), {}),
    "dealer_change_box": lambda: pit_terminal.box_at_change(object()),
    "threshold_dated": lambda: Threshold(code="low_hold.ratio_21", effective_from=date(2026, 11, 2)).save(),
}


@pytest.fixture
def unanswered(monkeypatch):
    """Forget a hook's answers for one test."""

    def forget(name: str):
        monkeypatch.setattr(hooks.HOOKS[name], "_answers", [])
        return hooks.HOOKS[name]

    return forget


def test_the_registry_lists_every_hook_and_who_answers_it():
    assert {name: hook.answered_by.split()[0] for name, hook in hooks.HOOKS.items()} == EVERY_HOOK
    assert set(ASKED) == set(EVERY_HOOK)


def test_every_hook_is_answered_once_the_apps_are_loaded():
    assert hooks.missing() == []
    assert [e for e in run_checks() if e.id == "core.E001"] == []


def test_the_higher_apps_register_their_answers_when_they_load():
    assert hooks.BOOKS_CLOSED._answers == [closed_reason]
    assert hooks.CLOSED_DATES._answers == [closed_dates]
    assert hooks.CLOSED_DAYS._answers == [closed_days]
    assert hooks.COLLECTING_DAYS._answers == [collecting_days]
    assert hooks.CLOSED_ON._answers == [closed_on]
    assert hooks.BOOKS_DAY._answers == [is_books_day]
    assert hooks.BOOKS_CLOSERS._answers == [books_closers]
    assert hooks.TOURNAMENT_VOID._answers == [amend_with_tournament_void]
    assert hooks.WAGER_CAP._answers == [check_wager_under_surveillance_caps]
    assert hooks.TIP_STATUS._answers == [cage_tip_status]
    assert hooks.CHIPS_EXIST._answers == [chips_exist_at]
    assert hooks.CHIPS_EXIST_SQL._answers == [chips_exist_sql]
    assert hooks.THRESHOLD_DATED._answers == [refuse_backdating]


@pytest.mark.parametrize("name", sorted(EVERY_HOOK))
def test_a_hook_without_its_answer_refuses_to_answer(name, unanswered):
    hook = unanswered(name)
    with pytest.raises(ImproperlyConfigured) as refused:
        ASKED[name]()
    assert repr(name) in str(refused.value) and EVERY_HOOK[name] in str(refused.value)
    assert hook in hooks.missing()


def test_startup_fails_while_a_hook_is_missing(unanswered):
    unanswered("books_closed")
    errors = [e for e in run_checks() if e.id == "core.E001"]
    assert len(errors) == 1 and "'books_closed'" in errors[0].msg and "accounting" in errors[0].hint
    with pytest.raises(ImproperlyConfigured):
        hooks.require_answers()


def test_a_hook_is_declared_once():
    with pytest.raises(ImproperlyConfigured):
        hooks.declare("books_closed", asked_by="x", answered_by="y", answer="z")


def test_a_registered_wager_cap_refuses_through_the_hook(unanswered):
    def two_dollars(table, max_wager_cents, at):
        if max_wager_cents > 200:
            raise ValidationError({"max_wager_cents": "ND 99-01.3-08-04(7): $2 at most."})

    unanswered("wager_cap")
    wager_caps.register_wager_cap(two_dollars)
    wager_caps.check_max_wager(object(), 200)
    with pytest.raises(ValidationError) as refused:
        wager_caps.check_max_wager(object(), 201, datetime(2026, 11, 2, tzinfo=UTC))
    assert refused.value.message_dict == {"max_wager_cents": ["ND 99-01.3-08-04(7): $2 at most."]}


def test_a_hook_of_many_answers_asks_each_registered_provider_once(unanswered):
    unanswered("open_items")
    provider = lambda day: []  # noqa: E731
    open_items.register_open_items(provider)
    open_items.register_open_items(provider)
    assert hooks.OPEN_ITEMS.answers() == [provider]


def test_the_packs_answer_the_chip_law_and_the_citations():
    """`cardroom.chip_rules` and `core.citations` ask the packs (registered by `packs.apps`)."""
    from packs import get_pack

    assert chip_rules.law_at("ND") is get_pack("ND").chips and chip_rules.law_at("WA-HB") is None
    assert citations.cite("core.retention", "ND") == "ND 99-01.3-08-16"
    assert citations.cite("core.retention", "NY") == "House control"
