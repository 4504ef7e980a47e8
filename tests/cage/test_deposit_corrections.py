"""A recorded bank deposit is corrected by a new row pointing back at it, never changed: the amount,
the date deposited and the slip reference as they should have read, with a reason, who and when
(`cage.services.correct_deposit`). The deposit stays as recorded; the correction stands, and the
deposits page, the daily page, the daily report (PDF and CSV), the API and the late-deposit check
read the deposit as it stands and list the correction with its reason. Before, a deposit once
recorded had no correction at all. Driven through the service, the API and the pages."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from cage import services
from cage.models import BankDeposit, DepositCorrection
from cage.queries import bank_day, deposits_maybe_late
from cardroom.models import Role
from core.appendonly import ImmutableRecordError
from core.audit import AuditEvent
from tests.factories import SiteFactory, make_person
from tests.page_support import at_site, page

from .conftest import DAY, make_gaming_day

RECORDED_ON = date(2026, 11, 4)  # DAY is a Monday: its deposit is due by Thursday 2026-11-05


def deposit(cashier, day, **overrides) -> BankDeposit:
    values = {"amount_cents": 123_400, "deposited_on": RECORDED_ON, "reference": "Slip 88", **overrides}
    return services.record_deposit(acting_user=cashier.user, gaming_day=day, **values)


def correct(who, recorded, **values):
    return services.correct_deposit(acting_user=who.user, deposit=recorded, **values)


# --- The service ---------------------------------------------------------------------------------------


def test_a_correction_points_back_at_the_deposit_which_stays_as_recorded(closed_day, cashier, shift_manager):
    recorded = deposit(cashier, closed_day)
    correction = correct(shift_manager, recorded, amount_cents=124_300, reason="Slip total misread: $1,243.00.")
    assert (correction.deposit_id, correction.amount_cents) == (recorded.pk, 124_300)
    assert (correction.deposited_on, correction.reference) == (RECORDED_ON, "Slip 88")  # left out: as it stood
    assert correction.initials == shift_manager.initials and correction.recorded_at is not None
    kept = BankDeposit.objects.get(pk=recorded.pk)
    assert (kept.amount_cents, kept.deposited_on, kept.reference) == (123_400, RECORDED_ON, "Slip 88")
    event = AuditEvent.objects.get(action="deposit.corrected")
    assert event.actor_id == shift_manager.user.pk and event.object_id == str(correction.pk)


def test_the_latest_correction_stands_and_points_back_through_the_one_before(closed_day, cashier, shift_manager):
    from cage.queries import deposit_corrections

    recorded = deposit(cashier, closed_day)
    correct(shift_manager, recorded, amount_cents=124_300, reason="Slip total misread.")
    correct(shift_manager, recorded, deposited_on=date(2026, 11, 6), reason="Taken to the bank on Friday.")
    assert bank_day(closed_day.site, DAY).deposit.amount_cents == 124_300
    assert bank_day(closed_day.site, DAY).deposit.deposited_on == date(2026, 11, 6)
    assert bank_day(closed_day.site, DAY).deposit.late  # after its due date, as it now stands
    first, second = deposit_corrections([closed_day.site_id], DAY, DAY)
    assert first.what == (
        "$1,234.00 deposited 2026-11-04 (Slip 88) corrected to $1,243.00 deposited 2026-11-04 (Slip 88)"
    )
    assert second.what == (
        "$1,243.00 deposited 2026-11-04 (Slip 88) corrected to $1,243.00 deposited 2026-11-06 (Slip 88)"
    )


def test_a_deposit_corrected_to_a_later_date_is_found_late_by_the_nightly_check(closed_day, cashier, shift_manager):
    recorded = deposit(cashier, closed_day)
    assert deposits_maybe_late([closed_day.site_id], DAY, DAY, within_days=3) == {}
    correct(shift_manager, recorded, deposited_on=date(2026, 11, 9), reason="The bank's receipt is dated the 9th.")
    assert deposits_maybe_late([closed_day.site_id], DAY, DAY, within_days=3) == {
        (closed_day.site_id, DAY): date(2026, 11, 9)
    }


@pytest.mark.parametrize(
    ("values", "field", "said"),
    [
        ({"amount_cents": 1, "reason": "  "}, "reason", "House control: a correction states its reason"),
        ({"reason": "Nothing, really."}, "amount_cents", "House control: the correction changes nothing"),
        ({"amount_cents": 123_400, "reason": "Same."}, "amount_cents", "the correction changes nothing"),
        ({"amount_cents": -5, "reason": "Typo."}, "amount_cents", "House control: the amount must be zero or more."),
        ({"amount_cents": 1.5, "reason": "Typo."}, "amount_cents", "a whole number of cents"),
        ({"deposited_on": date(2026, 11, 1), "reason": "Typo."}, "deposited_on", "ND 99-01.3-03-10"),
        ({"deposited_on": date(2099, 1, 1), "reason": "Typo."}, "deposited_on", "cannot be dated in the future"),
        ({"reference": "x" * 81, "reason": "Typo."}, "reference", "at most 80 characters"),
    ],
    ids=["no reason", "nothing changed", "the same amount", "negative", "fractional", "before", "future", "long"],
)
def test_a_bad_correction_is_refused_at_its_field_citing_its_rule(closed_day, cashier, values, field, said):
    recorded = deposit(cashier, closed_day)
    with pytest.raises(ValidationError) as refused:
        correct(cashier, recorded, **values)
    assert list(refused.value.message_dict) == [field] and said in refused.value.message_dict[field][0]
    assert not DepositCorrection.objects.exists()


def test_a_verified_deposit_is_not_corrected(closed_day, cashier, manager):
    recorded = deposit(cashier, closed_day)
    services.verify_deposit(
        acting_user=manager.user, deposit=recorded, statement_date=date(2026, 11, 5), statement_amount_cents=123_400
    )
    with pytest.raises(ValidationError) as refused:
        correct(cashier, recorded, amount_cents=100, reason="Typo.")
    assert "House control: the deposit of 2026-11-02 is verified" in refused.value.message_dict["deposit"][0]
    assert not DepositCorrection.objects.exists()


def test_the_verification_checks_the_statement_against_the_deposit_as_corrected(closed_day, cashier, manager):
    recorded = deposit(cashier, closed_day)
    correct(cashier, recorded, amount_cents=124_300, reason="Slip total misread.")
    verification = services.verify_deposit(
        acting_user=manager.user, deposit=recorded, statement_date=date(2026, 11, 5), statement_amount_cents=124_300
    )
    assert verification.difference_cents == 0


def test_who_corrected_a_deposit_does_not_verify_it(closed_day, cashier, manager):
    recorded = deposit(cashier, closed_day)
    correct(manager, recorded, amount_cents=124_300, reason="Slip total misread.")
    with pytest.raises(ValidationError) as refused:
        services.verify_deposit(
            acting_user=manager.user, deposit=recorded, statement_date=date(2026, 11, 5), statement_amount_cents=124_300
        )
    assert refused.value.message_dict == {
        "deposit": ["House control: someone other than who corrected the deposit verifies it."]
    }


@pytest.mark.parametrize("role", [Role.DEALER, Role.AUDITOR, Role.PIT_BOSS, Role.COUNT_TEAM])
def test_only_the_cage_clerks_who_record_deposits_correct_them(closed_day, cashier, cast, role):
    recorded = deposit(cashier, closed_day)
    with pytest.raises(PermissionDenied):
        correct(cast[role], recorded, amount_cents=1, reason="Typo.")
    assert not DepositCorrection.objects.exists()


def test_a_cashier_of_another_site_does_not_correct_its_deposit(closed_day, cashier, org, other_site):
    recorded = deposit(cashier, closed_day)
    with pytest.raises(PermissionDenied):
        correct(make_person(org, Role.CASHIER, other_site), recorded, amount_cents=1, reason="Typo.")


def test_a_correction_is_append_only_in_the_database(closed_day, cashier):
    correction = correct(cashier, deposit(cashier, closed_day), amount_cents=1, reason="Typo.")
    for change in (
        lambda: DepositCorrection.objects.filter(pk=correction.pk).update(amount_cents=2),
        lambda: DepositCorrection.objects.filter(pk=correction.pk).delete(),
    ):
        with pytest.raises(Exception) as refused, transaction.atomic():  # noqa: PT011 - the database's trigger
            change()
        assert isinstance(refused.value, ImmutableRecordError) or "append-only" in str(refused.value)
    assert DepositCorrection.objects.get().amount_cents == 1


# --- The API -------------------------------------------------------------------------------------------


def test_the_api_corrects_a_deposit_and_reads_it_as_it_stands_with_its_corrections(client_for, closed_day, cashier):
    recorded = deposit(cashier, closed_day)
    api = client_for(cashier)
    answer = api.post(
        f"/api/v1/cage/deposits/{recorded.pk}/correct/",
        {"amount_cents": 124_300, "reference": "Slip 89", "reason": "Slip total misread."},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["deposit"] == recorded.pk and answer.json()["amount_cents"] == 124_300
    read = api.get(f"/api/v1/cage/deposits/{recorded.pk}/").json()
    assert (read["amount_cents"], read["reference"]) == (123_400, "Slip 88")  # as recorded
    assert (read["standing_amount_cents"], read["standing_reference"]) == (124_300, "Slip 89")
    assert read["standing_deposited_on"] == "2026-11-04" and read["late"] is False
    assert [(c["amount_cents"], c["reason"]) for c in read["corrections"]] == [(124_300, "Slip total misread.")]


@pytest.mark.parametrize(
    ("body", "field", "said"),
    [
        ({"amount_cents": 100}, "reason", "House control: a correction states its reason"),
        ({"amount_cents": -100, "reason": "Typo."}, "amount_cents", "at least 0 cents (house control)"),
        ({"deposited_on": "2026-11-01", "reason": "Typo."}, "deposited_on", "ND 99-01.3-03-10"),
        ({"deposited_on": "Friday", "reason": "Typo."}, "deposited_on", "House control"),
        ({"reason": "Nothing."}, "amount_cents", "the correction changes nothing"),
        ({"amount_cents": 100, "reason": "Typo.", "note": "x"}, "note", "unknown field"),
    ],
    ids=["no reason", "negative", "before its day", "not a date", "nothing changed", "unknown field"],
)
def test_a_bad_correction_answers_400_naming_the_field_and_its_rule(client_for, closed_day, cashier, body, field, said):
    recorded = deposit(cashier, closed_day)
    answer = client_for(cashier).post(f"/api/v1/cage/deposits/{recorded.pk}/correct/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert said in answer.json()[field][0]
    assert not DepositCorrection.objects.exists()


@pytest.mark.parametrize(("role", "status"), [(Role.AUDITOR, 403), (Role.DEALER, 404), (Role.SHIFT_MANAGER, 201)])
def test_correcting_through_the_api_is_scoped_as_recording_a_deposit(
    client_for, closed_day, cashier, cast, role, status
):
    recorded = deposit(cashier, closed_day)
    body = {"amount_cents": 1, "reason": "Typo."}
    answer = client_for(cast[role]).post(f"/api/v1/cage/deposits/{recorded.pk}/correct/", body, format="json")
    assert answer.status_code == status, answer.content


def test_a_deposit_of_another_organization_is_not_found(client_for, closed_day, cashier, stranger_site):
    recorded = deposit(cashier, closed_day)
    stranger = make_person(stranger_site.organization, Role.GAMING_MANAGER, stranger_site)
    body = {"amount_cents": 1, "reason": "Typo."}
    answer = client_for(stranger).post(f"/api/v1/cage/deposits/{recorded.pk}/correct/", body, format="json")
    assert answer.status_code == 404
    assert not DepositCorrection.objects.exists()


# --- The deposits page ---------------------------------------------------------------------------------


def test_the_deposits_page_corrects_a_deposit_inline_and_lists_the_correction(client, closed_day, cashier):
    recorded = deposit(cashier, closed_day)
    cashier_page = at_site(client, cashier, closed_day.site)
    shown = page(cashier_page.get("/cage/deposits/"))
    assert f'action="/cage/deposits/{recorded.pk}/correct/"' in shown
    refused = cashier_page.post(f"/cage/deposits/{recorded.pk}/correct/", {"amount_cents": "1243.00", "reason": ""})
    assert refused.status_code == 400
    said = page(refused)
    assert '<ul class="errorlist" id="error-reason"><li>House control: a correction states its reason' in said
    assert '<details class="correct" open>' in said and not DepositCorrection.objects.exists()
    done = cashier_page.post(
        f"/cage/deposits/{recorded.pk}/correct/", {"amount_cents": "1243.00", "reason": "Slip total misread."}
    )
    assert done.status_code == 302
    shown = page(cashier_page.get("/cage/deposits/"))
    assert '<span class="standing">$1,243.00 on 2026-11-04</span>' in shown
    correction = DepositCorrection.objects.get()
    assert (
        f"Correction #{correction.pk} of deposit #{recorded.pk} (recorded $1,234.00 on 2026-11-04, Slip 88): "
        "$1,243.00 on 2026-11-04, Slip 88; reason: Slip total misread." in shown
    )


def test_the_deposits_page_offers_no_correction_to_an_auditor_or_of_a_verified_deposit(
    client, closed_day, cashier, cast, manager
):
    recorded = deposit(cashier, closed_day)
    assert "/correct/" not in page(at_site(client, cast[Role.AUDITOR], closed_day.site).get("/cage/deposits/"))
    services.verify_deposit(
        acting_user=manager.user, deposit=recorded, statement_date=date(2026, 11, 5), statement_amount_cents=123_400
    )
    assert "/correct/" not in page(at_site(client, cashier, closed_day.site).get("/cage/deposits/"))


# --- Each pack's site cites its own law ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "zone"),
    [("WA-HB", "America/Los_Angeles"), ("WA-BJ", "America/Los_Angeles"), ("NY", "America/New_York")],
)
def test_at_a_site_of_another_pack_the_corrections_rules_are_house_controls(org, code, zone):
    """The deposit deadline (ND 99-01.3-03-10) is North Dakota's; elsewhere it is a house control
    (cage.rules.DEPOSIT_DAYS), and a correction's refusals say so, never citing North Dakota."""
    from .conftest import close_books_directly

    site = SiteFactory(organization=org, jurisdiction=code, time_zone=zone, name=f"{code} room")
    clerk = make_person(org, Role.SHIFT_MANAGER, site)
    day = make_gaming_day(site, DAY, clerk, books=False)
    close_books_directly(site, DAY, clerk)
    recorded = deposit(clerk, day)
    with pytest.raises(ValidationError) as refused:
        correct(clerk, recorded, deposited_on=DAY - timedelta(days=1), reason="Typo.")
    said = refused.value.message_dict["deposited_on"][0]
    assert said.startswith("House control:") and "ND" not in said
    assert correct(clerk, recorded, amount_cents=1, reason="Typo.").amount_cents == 1


# --- The daily page and the daily report ----------------------------------------------------------------

PLAYED = date(2026, 11, 27)  # a Friday: its deposit is due by Wednesday 2026-12-02
LATER = date(2026, 12, 4)


@pytest.fixture
def corrected(cast, site):
    """PLAYED played (an empty gaming day, its bank counted) and its books closed; its deposit
    recorded at $10.00 and corrected to $0.00 (the day made no cash profit) the day after."""
    from floor.models import GamingDay
    from tests.accounting import books_days

    books_days.closed_day(cast, site, PLAYED)
    with books_days.on(site, PLAYED + timedelta(days=1)):
        recorded = deposit(
            cast[Role.CASHIER], GamingDay.objects.get(site=site, gaming_date=PLAYED), amount_cents=1_000,
            deposited_on=PLAYED + timedelta(days=1), reference="Slip 7",
        )  # fmt: skip
        return recorded, correct(cast[Role.SHIFT_MANAGER], recorded, amount_cents=0, reason="No cash profit: nil.")


def test_the_daily_page_shows_the_deposit_as_corrected_and_lists_the_correction(client, cast, site, corrected):
    from tests.accounting.books_days import on

    recorded, correction = corrected
    with on(site, LATER):
        shown = page(at_site(client, cast[Role.GAMING_MANAGER], site).get(f"/dashboard/daily/?date={PLAYED}"))
    assert '<td class="text-end" id="deposit-recorded">$0.00</td>' in shown
    assert f'id="deposit-correction-{correction.pk}"' in shown
    assert (
        f'correction #{correction.pk} of deposit #{recorded.pk}</th><td></td><td class="small text-muted">'
        "$10.00 deposited 2026-11-28 (Slip 7) corrected to $0.00 deposited 2026-11-28 (Slip 7); "
        "reason: No cash profit: nil." in shown
    )


def test_the_daily_report_gives_the_deposit_as_corrected_and_lists_the_correction(client_for, cast, site, corrected):
    from tests.accounting.books_days import on
    from tests.reports.test_kind_daily import csv_rows, download, pdf_text, run_report

    recorded, correction = corrected
    api = client_for(cast[Role.AUDITOR])
    with on(site, LATER):
        run = run_report(api, kind="daily", site=site.pk, start=str(PLAYED), end=str(PLAYED))
        text = " ".join(pdf_text(download(api, run)).split())
        rows = csv_rows(api, run)
    assert "Bank deposit recorded $0.00" in text
    assert "deposited 2026-11-28, not yet verified." in text
    assert "Deposit corrected (1): each correction points back at the deposit as recorded" in text
    listed = text[text.index("Deposit corrected (1)") :]  # its cells wrap: read piece by piece
    assert f"#{correction.pk} of deposit #{recorded.pk}: $10.00 deposited 2026-11-28 (Slip 7)" in listed
    assert "corrected to $0.00 deposited 2026-11-28 (Slip 7)" in listed and "No cash profit: nil." in listed
    header = rows[0]
    kind, recorded_column = header.index("Table"), header.index("Deposit recorded")
    [total] = [r for r in rows[1:] if r[kind] == "total"]
    assert total[recorded_column] == "0.00"
    [row] = [r for r in rows[1:] if r[kind] == "deposit_correction"]
    assert row[header.index("Amount")] == "0.00"
    assert row[header.index("Figure")] == (
        f"#{correction.pk} of deposit #{recorded.pk}: $10.00 deposited 2026-11-28 (Slip 7) corrected to $0.00 "
        "deposited 2026-11-28 (Slip 7) (No cash profit: nil.; "
        f"{cast[Role.SHIFT_MANAGER].initials})"
    )
