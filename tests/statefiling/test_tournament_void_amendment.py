"""A void of a tournament fee on a filed return already sent to the state's registry: the
amendment of the return (accounting.amendments.amend_with_tournament_void) is queued in the void's
own transaction, pointing back at the filing's receipt, names the void and the fee it voids, and
the registry files it against the original and reads which figure it changed."""

from core import filing_package
from core.periods import Quarter
from registry.models import ReceivedFiling
from registry.queries import quarter_rows
from registry.services import verify_filings
from statefiling import delivery
from statefiling.models import FilingReceipt, Submission
from tests.accounting.test_filing_amendments import a_tournament_on_the_return
from tournaments import services as tournaments


def test_a_void_of_a_fee_on_a_return_sent_is_queued_for_the_registry_and_filed_against_it(
    linked, site, people, cast, table, manager
):
    from cardroom.models import Role

    filing, fee, _ = a_tournament_on_the_return(site, people, cast, table, manager)
    original = Submission.objects.get(filing=filing, amendment__isnull=True)
    assert delivery.deliver(original.pk) == "delivered"

    void = tournaments.void_fee(acting_user=cast[Role.SHIFT_MANAGER].user, fee=fee, reason="rung up by mistake")
    queued = Submission.objects.get(amendment__tournament_fee=void)  # queued in the void's transaction, not sent
    assert queued.delivered_at is None and queued.filing_id == filing.pk
    package = queued.package
    assert filing_package.problems(package) == {} and queued.package_sha256 == filing_package.digest(package)
    assert package["amends"] == FilingReceipt.objects.get(filing=filing).receipt_number
    change = package["figures"]["amendment"]
    assert (change["source"], change["figure"], change["delta_cents"]) == (
        "tournament_void",
        "tournament_agp_cents",
        -fee.fee_cents,
    )
    assert change["entry"] == {
        "tournament_fee_void": void.pk,
        "fee": fee.pk,
        "kind": "entry",
        "fee_cents": fee.fee_cents,
        "tournament": fee.tournament_id,
        "voided_date": str(fee.gaming_date),
        "entered_on": str(void.gaming_date),
        "reason": "rung up by mistake",
    }

    # The return as it now stands carries the tournament line the void moved, read by its name.
    line = filing_package.return_now_figures(package["figures"])["tournament_agp_cents"]
    played = filing.figures["summary"]["tournaments"]["agp_cents"]
    assert (line["filed_cents"], line["amendments_since_cents"], line["now_cents"]) == (
        played,
        -fee.fee_cents,
        played - fee.fee_cents,
    )

    assert delivery.deliver(queued.pk) == "delivered"
    held = ReceivedFiling.objects.get(amends__isnull=False)
    assert held.amends.receipt_number == package["amends"] and verify_filings(held.agency).ok
    rows = [r for r in quarter_rows(held.agency, Quarter.parse(held.quarter)) if r["amends"]]
    assert [(r["amended_figure"], r["amended_delta_cents"]) for r in rows] == [("Tournament AGP", -fee.fee_cents)]


def test_a_void_of_a_prize_on_a_return_sent_names_the_prize_and_its_amount(linked, site, people, cast, table, manager):
    from cardroom.models import Role

    filing, _, prize = a_tournament_on_the_return(site, people, cast, table, manager)
    assert delivery.deliver(Submission.objects.get(filing=filing, amendment__isnull=True).pk) == "delivered"

    void = tournaments.void_prize(acting_user=cast[Role.SHIFT_MANAGER].user, prize=prize, reason="wrong player")
    change = Submission.objects.get(amendment__tournament_prize=void).package["figures"]["amendment"]
    assert (change["figure"], change["delta_cents"]) == ("tournament_agp_cents", prize.amount_cents)
    assert change["entry"] == {
        "tournament_prize_void": void.pk,
        "prize": prize.pk,
        "kind": prize.kind,
        "amount_cents": prize.amount_cents,
        "tournament": prize.tournament_id,
        "voided_date": str(prize.gaming_date),
        "entered_on": str(void.gaming_date),
        "reason": "wrong player",
    }


def test_the_state_reads_a_returns_tournament_play_beside_its_tables_as_filed_and_as_amended(
    linked, licensee, site, people, cast, table, manager
):
    """A site's line of the ND return is its tables' and its tournaments' (ND 99-01.3-08-16(1)(g):
    all twenty-one activity) and its tax is on both; the state's quarter page, CSV and XLSX gave the
    tables' figures alone and no tournament figure, so the AGP it read was not the AGP taxed. Now
    each return's row gives its tournament gross proceeds, prizes and AGP as filed (the tables' and
    these sum to the return's line), and a void's amendment restates them as the return now stands."""
    import csv
    import io

    from openpyxl import load_workbook

    from cardroom.models import Role

    from .test_amendments import money, state_auditor

    filing, fee, _ = a_tournament_on_the_return(site, people, cast, table, manager)
    assert delivery.deliver(Submission.objects.get(filing=filing, amendment__isnull=True).pk) == "delivered"
    void = tournaments.void_fee(acting_user=cast[Role.SHIFT_MANAGER].user, fee=fee, reason="rung up by mistake")
    assert delivery.deliver(Submission.objects.get(amendment__tournament_fee=void).pk) == "delivered"
    played = filing.figures["summary"]["tournaments"]
    tables = filing.figures["summary"]["total"]
    (line,) = [s for s in filing.figures["tax"]["sites"] if s["site"] == site.name]
    keys = ("gross_proceeds_cents", "prizes_cents", "agp_cents")
    assert all(tables[k] + played[k] == line[k] for k in keys)  # the return's line: both
    filed_number = FilingReceipt.objects.get(filing=filing).receipt_number

    state = state_auditor(licensee)
    url = f"/registry/quarter/?quarter={filing.quarter}"
    rows = {r["receipt_number"]: r for r in csv.DictReader(io.StringIO(state.get(f"{url}&format=csv").text))}
    filed, amended = rows[filed_number], next(r for r in rows.values() if r["amends"] == filed_number)
    assert [filed[f"tournament_{k}"] for k in keys] == [str(played[k]) for k in keys]
    assert [int(filed[k]) + int(filed[f"tournament_{k}"]) for k in keys] == [line[k] for k in keys]
    assert (amended["tournament_gross_proceeds_cents"], amended["tournament_agp_cents"]) == (
        str(played["gross_proceeds_cents"] - fee.fee_cents),
        str(played["agp_cents"] - fee.fee_cents),
    )
    sheet = load_workbook(io.BytesIO(state.get(f"{url}&format=xlsx").content)).active
    header, *cells = list(sheet.values)
    book = {r["receipt_number"]: r for r in (dict(zip(header, c, strict=True)) for c in cells)}
    assert book[filed_number]["tournament_agp_cents"] == played["agp_cents"]  # a number
    html = state.get(url).content.decode()
    assert '<th class="text-end wide-heading">Tournament gross proceeds</th>' in html
    assert '<th class="text-end">Tournament AGP</th>' in html
    assert f'<td class="text-end tournament">{money(played["agp_cents"])}</td>' in html
