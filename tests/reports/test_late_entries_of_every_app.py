"""The daily report lists every record of a gaming day's books entered late, whichever app keeps it
(core.moments): the cage's IOUs and repayments, chip redemptions and dealer tips, the drop's
boxes placed and removed, the count's session and signatures, the tournaments' fees and prizes,
each entered from paper months later through its own service, at a site of every pack that keeps
it, in the PDF's "Entered late" table and the CSV's count, named as the record's page names it."""

# ruff: noqa: F811  (pytest fixtures imported from test_kind_daily are redefined as arguments)

import pytest

from cage import queries as cage_queries
from cage import services as cage
from cardroom.models import Role
from counts import queries as count_queries
from counts import services as counts
from floor import services as floor
from floor.rules import house_chips
from tests.accounting.scenario import at
from tests.counts.conftest import cash
from tests.factories import TableFactory, make_chips
from tests.reports.test_kind_daily import (  # noqa: F401  (fixtures)
    auditor_api,
    csv_rows,
    download,
    pdf_tables,
    pdf_text,
    people,
    run_report,
    scenario,
)
from tests.tournaments.conftest import announce
from tournaments import queries as tournament_queries
from tournaments import services as tournaments

from .test_late_entries import DAY

# Each pack's apps that keep these records: a fees-only house keeps no drop box, and only North
# Dakota's rules define a tournament.
KEPT = {
    "ND": {"cage", "counts", "tournaments"},
    "WA-HB": {"cage", "counts"},
    "NY": {"cage", "counts"},
    "WA-BJ": {"cage"},
}


def enter_the_cages_night(site, people, dealer) -> list[str]:
    """An IOU lent and repaid, a chip redemption and tips declared and redeemed (neither where the
    house's revenue is its fees: it holds no chips, floor.rules.house_chips), all of DAY
    (hours UTC), entered now: the labels the report gives them."""
    cashier = people["cashier"].user
    make_chips(site.organization)
    iou = cage.lend_iou(
        acting_user=cashier,
        site=site,
        gaming_date=DAY,
        source="reserve",
        destination="bank",
        amount_cents=50_000,
        at=at(DAY, 15),
    )
    cage.repay_iou(acting_user=cashier, iou=iou, at=at(DAY, 16))
    redeemed = house_chips(site)
    if redeemed:
        cage.redeem_chips(acting_user=cashier, site=site, gaming_date=DAY, chips={2500: 2}, at=at(DAY, 17))
    if redeemed:  # nor tip chips declared where the house holds none
        tips = cage.declare_tips(acting_user=dealer.user, site=site, gaming_date=DAY, chips={100: 5}, at=at(DAY, 18))
        cage.redeem_tips(acting_user=cashier, declaration=tips, dealer=dealer, at=at(DAY, 19))
    funds = f"Reserve (safe) to {iou.destination_label}"
    return [
        f"IOU lent, {funds}",
        f"IOU repayment, {funds}",
        *(["Chip redemption, $50.00 cash paid"] if redeemed else []),
        *([f"Dealer tips declared, {dealer}", f"Dealer tips redeemed, {dealer}"] if redeemed else []),
    ]


def enter_the_drop_and_count(site, people, manager) -> list[str]:
    """A box placed on DAY and removed after the close, its count opened, counted and signed the
    next morning, entered now: the labels the report gives them (the counts themselves keep no
    late mark)."""
    table = TableFactory(site=site, number=4)
    box = counts.register_drop_box(acting_user=manager.user, table=table)
    shift, first, second = people["shift"].user, people["count1"], people["count2"]
    counts.place_drop_box(acting_user=shift, drop_box=box, gaming_date=DAY, at=at(DAY, 14))
    counts.remove_drop_box(
        acting_user=shift,
        drop_box=box,
        storage_place="office safe",
        key_holder=first,
        sole_employee_on_duty=True,
        removed_at=at(DAY, 30),
    )
    session = counts.open_count_session(
        acting_user=first.user, site=site, gaming_date=DAY, members=(first, second), at=at(DAY, 32)
    )
    for member in (first, second):
        counts.record_blind_count(
            acting_user=member.user, session=session, drop_box=box, currency=cash(b100=3), at=at(DAY, 33)
        )
    for minutes, member in enumerate((first, second)):
        counts.sign_count(acting_user=member.user, session=session, at=at(DAY, 34).replace(minute=minutes))
    return [
        f"{box} placed, table 4",
        f"{box} removed, table 4",
        "Count session opened",
        f"Count initialled and dated by {first.initials}",
        f"Count initialled and dated by {second.initials}",
    ]


def enter_the_tournament(site, people) -> list[str]:
    """A tournament's entry fee, its prize and the prize's void, of DAY, entered now: the labels the
    report gives them (the announcement, outside the books, is not listed)."""
    boss = people["shift"]
    tournament = announce(boss, site, name="Summer Classic", gaming_date=DAY, at=at(DAY, 13))
    fee = tournaments.collect_fee(
        acting_user=boss.user, tournament=tournament, kind="entry", player_name="Ann Lee", at=at(DAY, 14)
    )
    prize = tournaments.award_prize(
        acting_user=boss.user,
        tournament=tournament,
        player=fee.player,
        round_name="Final",
        kind="cash",
        amount_cents=15_000,
        at=at(DAY, 20),
    )
    tournaments.void_prize(acting_user=boss.user, prize=prize, reason="the wrong player", at=at(DAY, 21))
    return [
        "Tournament entry fee: Ann Lee (Summer Classic)",
        "Tournament prize, Final: Ann Lee (Summer Classic)",
        f"Tournament prize, Final (void of prize {prize.pk}): Ann Lee (Summer Classic)",
    ]


@pytest.mark.parametrize("jurisdiction", sorted(KEPT))
def test_the_daily_report_lists_every_record_of_the_books_entered_late(
    auditor_api, site, people, cast, manager, jurisdiction, django_assert_num_queries
):
    site.jurisdiction = jurisdiction
    site.save(update_fields=["jurisdiction"])
    floor.open_gaming_day(acting_user=people["shift"].user, site=site, gaming_date=DAY, at=at(DAY, 12))
    expected = enter_the_cages_night(site, people, cast[Role.DEALER])
    providers = [(cage_queries, 6)]
    if "counts" in KEPT[jurisdiction]:
        expected += enter_the_drop_and_count(site, people, manager)
        providers.append((count_queries, 4))
    if "tournaments" in KEPT[jurisdiction]:
        expected += enter_the_tournament(site, people)
        providers.append((tournament_queries, 2))
    for queries, fixed in providers:  # one query a kind, however many rows
        with django_assert_num_queries(fixed):
            queries.late_entries(site, DAY, DAY)
    run = run_report(auditor_api, kind="daily", site=site.pk, start=str(DAY), end=str(DAY))
    content = download(auditor_api, run)
    heading = ["Record", "Happened", "Entered"]  # repeated where the table runs on to the next page
    rows = [row for g in pdf_tables(content) if g[0] == heading for row in g[1:] if row != heading]
    listed = [row[0] for row in rows if row[0]]
    assert [label for label in expected if label not in listed] == []
    assert not any("announced" in label.lower() or "explained" in label.lower() for label in listed)
    for row in rows:
        if row[0] in expected:
            assert row[1].startswith("2026-08-1") and not row[2].startswith("2026-08-1")  # happened, then entered
    csv = csv_rows(auditor_api, run)
    total = next(row for row in csv[1:] if row[1] == "total")
    assert int(total[csv[0].index("Entered late")]) == len(listed)
