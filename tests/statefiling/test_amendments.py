"""Amendments sent from the organization's side: an entry after a quarter was filed that changes
its return (a FilingAmendment) is queued in its own transaction as a package of its own,
pointing back at the filing's receipt, and delivered by the same Celery delivery with retries;
its receipt shows on the quarter page and in the API beside the amendment. The registry is
reachable in this process (registry_in_process, through conftest): real code on both ends of the wire."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounting.models import FilingAmendment
from core import filing_package
from registry import services as registry
from registry.models import ReceivedFiling, Regulator, RegulatorRole
from registry.services import verify_filings
from statefiling import client, delivery, services, tasks
from statefiling.models import AmendmentReceipt, FilingReceipt, Submission
from tests.accounting.test_quarter_filing import post_drop_adjustment, text
from tests.reports.test_kind_daily import download, run_report

from .registry_in_process import URL

pytestmark = pytest.mark.usefixtures("quarter_played")
OTHER_GAMES = 80_000_000


def file_q3(api, site) -> Submission:
    response = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert response.status_code == 201, response.content
    return Submission.objects.get(filing_id=response.json()["id"], amendment__isnull=True)


def adjust(api, site, table, amount=5_000) -> Submission:
    response = post_drop_adjustment(api, site, table, amount, "a $50 bill found in box 1 after the filing")
    return Submission.objects.get(amendment=FilingAmendment.objects.get(adjustment_id=response.json()["id"]))


def test_an_amendment_is_delivered_pointing_back_at_the_filings_receipt(
    linked, client_for, manager, site, table, client
):
    api = client_for(manager)
    original = file_q3(api, site)
    assert delivery.deliver(original.pk) == "delivered"
    filed_receipt = FilingReceipt.objects.get(filing=original.filing)

    queued = adjust(api, site, table)  # queued in the adjustment's own transaction, not sent
    package = queued.package
    assert queued.delivered_at is None and queued.filing_id == original.filing_id
    assert filing_package.problems(package) == {} and queued.package_sha256 == filing_package.digest(package)
    assert package["amends"] == filed_receipt.receipt_number and package["quarter"] == "2026Q3"
    change = package["figures"]["amendment"]
    assert (change["figure"], change["delta_cents"], change["entry"]["amount_cents"]) == ("agp_cents", 5_000, 5_000)
    assert package["figures"]["amends_figures_sha256"] == original.filing.figures_sha256

    assert delivery.deliver(queued.pk) == "delivered"
    receipt = AmendmentReceipt.objects.get(amendment=queued.amendment)
    assert receipt.amends_receipt_number == filed_receipt.receipt_number
    held = ReceivedFiling.objects.get(receipt_number=receipt.receipt_number)
    assert held.amends.receipt_number == filed_receipt.receipt_number and held.package_sha256 == queued.package_sha256
    assert verify_filings(held.agency).ok

    client.force_login(manager.user)
    page = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    listed = page[page.index('id="state-amendment-receipts"') :].split("</ul>")[0]
    assert f'data-amendment="{queued.amendment_id}"' in listed
    assert f"receipt {receipt.receipt_number} amending {filed_receipt.receipt_number}" in listed
    rows = {r["amendment"]: r for r in api.get(f"/api/v1/sites/{site.pk}/state-filings/").json()["results"]}
    assert (rows[queued.amendment_id]["receipt_number"], rows[queued.amendment_id]["amends_receipt_number"]) == (
        receipt.receipt_number,
        filed_receipt.receipt_number,
    )
    assert (rows[None]["receipt_number"], rows[None]["state"]) == (filed_receipt.receipt_number, "delivered")
    pdf = download(api, run_report(api, kind="quarterly", site=site.pk, quarter="2026Q3"))
    assert f"Amendment {queued.amendment_id}: AGP" in text(pdf) and f"receipt {receipt.receipt_number}" in text(pdf)


def test_an_amendment_made_while_the_registry_is_down_is_delivered_once_it_is_back_and_only_once(
    linked, in_process_registry, client_for, manager, site, org
):
    api = client_for(manager)
    in_process_registry.down = True
    original = file_q3(api, site)
    with pytest.raises(client.Unreachable):
        delivery.deliver(original.pk)
    response = api.post(
        f"/api/v1/organizations/{org.pk}/other-games-agp/",
        {"quarter": "2026Q3", "agp_cents": OTHER_GAMES, "note": "pull tabs, return GT-77"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    amended = Submission.objects.get(amendment__other_games_agp_id=response.json()["id"])
    assert amended.package["amends"] is None  # the filing's receipt has not come yet
    with pytest.raises(client.Unreachable):  # it waits for the receipt of the filing it amends
        delivery.deliver(amended.pk)
    amended.refresh_from_db()
    assert amended.attempts == 1 and "receipt of the filing it amends" in amended.last_error
    rows = {r["amendment"]: r for r in api.get(f"/api/v1/sites/{site.pk}/state-filings/").json()["results"]}
    assert (rows[amended.amendment_id]["state"], rows[amended.amendment_id]["receipt_number"]) == ("pending", None)

    in_process_registry.down = False
    assert tasks.deliver_pending() == 2  # the filing first, then the amendment pointing back at it
    assert tasks.deliver_pending() == 0
    assert delivery.deliver(amended.pk) == "delivered"  # a re-run sends nothing
    amended.refresh_from_db()
    filed_number = FilingReceipt.objects.get(filing=original.filing).receipt_number
    assert amended.package["amends"] == filed_number
    assert amended.package_sha256 == filing_package.digest(amended.package)
    posts = [r for r in in_process_registry.requests if r[0] == "POST"]
    assert len(posts) == 2
    held = ReceivedFiling.objects.order_by("seq")
    assert [(f.quarter, f.amends.receipt_number if f.amends_id else None) for f in held] == [
        ("2026Q3", None),
        ("2026Q3", filed_number),
    ]
    assert AmendmentReceipt.objects.get().receipt_number == held[1].receipt_number


def test_a_lost_answer_is_sent_again_with_the_same_key_and_the_registry_files_it_once(
    linked, in_process_registry, client_for, manager, site, table
):
    api = client_for(manager)
    delivery.deliver(file_q3(api, site).pk)
    queued = adjust(api, site, table, amount=-2_000)
    # The registry receives the package but its answer is lost on the way back.
    client.call(linked.url, linked.credential, "POST", delivery.FILINGS_PATH, {"package": queued.package},
                {"Idempotency-Key": queued.idempotency_key})  # fmt: skip
    assert delivery.deliver(queued.pk) == "delivered"
    assert ReceivedFiling.objects.filter(amends__isnull=False).count() == 1
    assert (
        AmendmentReceipt.objects.get().receipt_number == ReceivedFiling.objects.get(amends__isnull=False).receipt_number
    )


def test_an_amendment_of_a_filing_never_sent_to_a_registry_queues_nothing(
    in_process_registry, licensee, client_for, manager, site, table, org
):
    api = client_for(manager)
    api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=issued.secret
    )
    post_drop_adjustment(api, site, table, 1_000, "found later")
    assert FilingAmendment.objects.exists()
    assert not Submission.objects.exists()


def test_an_amendment_carries_the_return_as_it_now_stands_and_the_registry_shows_the_tax_filed_and_now(
    linked, client_for, manager, site, table, licensee
):
    api = client_for(manager)
    assert delivery.deliver(file_q3(api, site).pk) == "delivered"
    queued = adjust(api, site, table, amount=5_000)
    package = queued.package
    lines = {line["figure"]: line for line in package["figures"]["return_now"]}
    assert lines["AGP"]["now_cents"] - lines["AGP"]["filed_cents"] == 5_000
    # The same return the organization reads beside its filing (the quarter-filing API)
    beside = api.get(f"/api/v1/sites/{site.pk}/quarter-filing/?quarter=2026Q3").json()["filed_beside_now"]
    assert package["figures"]["return_now"] == beside
    tax = lines["Gaming tax"]
    assert package["tax"] == {"filed_cents": tax["filed_cents"], "now_cents": tax["now_cents"]}
    # $50 more AGP in the quarter as it now reads, counted and taxed in the quarter it was entered:
    # the return's tax as it now stands is the tax filed, so the state never bills it twice.
    assert tax["now_cents"] == tax["filed_cents"]

    assert delivery.deliver(queued.pk) == "delivered"
    number = AmendmentReceipt.objects.get(amendment=queued.amendment).receipt_number
    state = state_auditor(licensee)
    html = state.get("/registry/quarter/?quarter=2026Q3").content.decode()
    row = html[html.index(number) :].split("</tr>")[0]
    filed_number = FilingReceipt.objects.get(filing=queued.filing).receipt_number
    now = f"${Decimal(tax['now_cents']) / 100:,.2f}"
    # The tax filed is on the amended return's own row; the amendment's names it and gives the tax now
    assert f"as filed, receipt {filed_number} above" in row and now in row and "changed" not in row


def state_auditor(licensee) -> Client:
    """A browser signed in as a state auditor of the licensee's agency."""
    user = get_user_model().objects.create_user("state", password="x")
    Regulator.objects.create(user=user, agency=licensee.agency, role=RegulatorRole.STATE_AUDITOR)
    state = Client()
    state.force_login(user)
    return state


def filed_and_amended(api, site, table) -> tuple[Submission, Submission]:
    """Q3 filed and delivered, then a $50 drop correction's amendment delivered after it."""
    original = file_q3(api, site)
    assert delivery.deliver(original.pk) == "delivered"
    queued = adjust(api, site, table, amount=5_000)
    assert delivery.deliver(queued.pk) == "delivered"
    return original, queued


def money(cents) -> str:
    return f"{'-' if cents < 0 else ''}${Decimal(abs(cents)) / 100:,.2f}"


def test_the_registry_shows_an_amended_returns_figures_now_in_the_packs_words_each_once(
    linked, client_for, manager, site, table, licensee
):
    """An amendment's package restates the return (`return_now`); the state's quarter page, CSV and
    XLSX read its figures from it (they said "not known"), name the figure changed as the pack's
    words do (they said `agp_cents`), and leave the tax filed on the amended return's row (they
    repeated it, so a column of the tax filed summed it twice)."""
    import csv
    import io

    from openpyxl import load_workbook

    original, queued = filed_and_amended(client_for(manager), site, table)
    lines = {line["figure"]: line for line in queued.package["figures"]["return_now"]}
    assert set(lines) <= set(filing_package.RETURN_NOW_FIGURES)  # every line the registry reads by name
    gp, agp = lines["Gross proceeds"]["now_cents"], lines["AGP"]["now_cents"]
    hold = f"{Decimal(agp) / Decimal(gp) * 100:.2f}%"
    filed_number = FilingReceipt.objects.get(filing=original.filing).receipt_number
    amended_number = AmendmentReceipt.objects.get(amendment=queued.amendment).receipt_number
    state = state_auditor(licensee)

    html = state.get("/registry/quarter/?quarter=2026Q3").content.decode()
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    row = body[body.index(amended_number) :].split("</tr>")[0]
    assert "not known" not in row and "_cents" not in html
    assert "<td>Adjusted gross proceeds (AGP), by a correction of the drop</td>" in row and money(5_000) in row
    assert row.count(money(gp)) == 2 and money(agp) in row and f">{hold}</td>" in row  # the drop is the GP
    assert (
        f'<td class="text-end paid">{money(lines["Prizes"]["now_cents"])}</td>' in row
    )  # GP - prizes = AGP, on the page
    filed_tax = lines["Gaming tax"]["filed_cents"]
    # a correction of a day is taxed in the quarter it was entered, so the return as it now stands
    # keeps the tax filed, and the page says so in the licensee's own words (it said "Tax now (amended)")
    assert lines["Gaming tax"]["now_cents"] == filed_tax
    assert (
        '<th class="text-end wide-heading">Tax as the return now stands</th>' in html
        and "never again in the quarter it corrects" in html
    )
    assert body.count(f'<td class="text-end tax-filed">{money(filed_tax)}</td>') == 1  # on the return's own row
    assert f"as filed, receipt {filed_number} above" in row

    downloaded = {
        r["receipt_number"]: r
        for r in csv.DictReader(io.StringIO(state.get("/registry/quarter/?quarter=2026Q3&format=csv").text))
    }
    amended = downloaded[amended_number]
    assert (
        amended["amended_figure"] == "Adjusted gross proceeds (AGP), by a correction of the drop"
        and amended["amended_delta_cents"] == "5000"
    )
    assert (amended["drop_cents"], amended["gross_proceeds_cents"], amended["agp_cents"]) == (
        str(gp),
        str(gp),
        str(agp),
    )
    assert amended["prizes_cents"] == str(lines["Prizes"]["now_cents"])
    assert (amended["tax_filed_cents"], amended["tax_now_cents"]) == ("", str(lines["Gaming tax"]["now_cents"]))
    assert (amended["tax_scope"], amended["tax_as_receipt"]) == ("amendment", filed_number)
    assert sum(int(r["tax_filed_cents"] or 0) for r in downloaded.values()) == filed_tax  # once

    sheet = load_workbook(io.BytesIO(state.get("/registry/quarter/?quarter=2026Q3&format=xlsx").content)).active
    header, *cells = list(sheet.values)
    book = {r["receipt_number"]: r for r in (dict(zip(header, c, strict=True)) for c in cells)}
    assert book[amended_number]["amended_figure"] == "Adjusted gross proceeds (AGP), by a correction of the drop"
    assert (book[amended_number]["agp_cents"], book[amended_number]["tax_filed_cents"]) == (agp, None)
    expected = (Decimal(agp) / Decimal(gp)).quantize(Decimal("0.000001"))
    assert round(book[amended_number]["hold_ratio"] * 1_000_000) == int(expected * 1_000_000)  # a number


def test_the_registry_shows_each_returns_cash_profit_and_an_amendment_restates_it(
    linked, client_for, manager, site, table, licensee
):
    """Each filed package carries the site's cash profit for the quarter (`summary`; an amendment's
    `return_now` restates it): the state's quarter page, CSV and XLSX show it beside the other
    figures, in the same units (they had no column for it); the amendment's row gives it as it
    now stands and is not a second return to add."""
    import csv
    import io

    from openpyxl import load_workbook

    original, queued = filed_and_amended(client_for(manager), site, table)
    filed = original.package["figures"]["summary"]["cash_profit_cents"]
    now = {line["figure"]: line for line in queued.package["figures"]["return_now"]}["Cash profit"]["now_cents"]
    assert isinstance(filed, int) and isinstance(now, int)
    filed_number = FilingReceipt.objects.get(filing=original.filing).receipt_number
    amended_number = AmendmentReceipt.objects.get(amendment=queued.amendment).receipt_number
    state = state_auditor(licensee)

    html = state.get("/registry/quarter/?quarter=2026Q3").content.decode()
    assert '<th class="text-end">Cash profit</th>' in html
    for number, cents in ((filed_number, filed), (amended_number, now)):
        row = html[html.index(number) :].split("</tr>")[0]
        assert f'<td class="text-end cash-profit">{money(cents)}</td>' in row

    rows = list(csv.DictReader(io.StringIO(state.get("/registry/quarter/?quarter=2026Q3&format=csv").text)))
    by_receipt = {r["receipt_number"]: r for r in rows}
    assert by_receipt[filed_number]["cash_profit_cents"] == str(filed)
    assert (by_receipt[amended_number]["amends"], by_receipt[amended_number]["cash_profit_cents"]) == (
        filed_number,
        str(now),
    )
    assert sum(int(r["cash_profit_cents"]) for r in rows if not r["amends"]) == filed  # the returns, once

    sheet = load_workbook(io.BytesIO(state.get("/registry/quarter/?quarter=2026Q3&format=xlsx").content)).active
    header, *cells = list(sheet.values)
    book = {r["receipt_number"]: r for r in (dict(zip(header, c, strict=True)) for c in cells)}
    assert (book[filed_number]["cash_profit_cents"], book[amended_number]["cash_profit_cents"]) == (filed, now)


def test_another_sites_later_filing_amends_the_return_sent_and_the_registry_reads_which_figure(
    linked, client_for, manager, site, org, client
):
    """A site set up after `site`'s return was sent files the quarter with figures in it: the
    organization's AGP on `site`'s return moved, so an amendment of that return goes to the
    registry, naming the filing that changed it, and the registry's list says which figure."""
    from tests.accounting.test_filing_amendments import a_site_set_up_after_the_filing_takes_fees_in_the_quarter

    api = client_for(manager)
    original = file_q3(api, site)
    assert delivery.deliver(original.pk) == "delivered"
    new = a_site_set_up_after_the_filing_takes_fees_in_the_quarter(api, org, manager, client_for)
    theirs = file_q3(api, type(site).objects.get(pk=new["id"]))
    queued = Submission.objects.get(amendment__filing=original.filing)
    change = queued.package["figures"]["amendment"]
    assert (change["source"], change["figure"], change["delta_cents"]) == ("site_filing", "sites_agp_cents", 20_000)
    assert change["entry"] == {
        "site_filing": theirs.filing_id,
        "site": "Moose Lodge",
        "quarter": "2026Q3",
        "figures_sha256": theirs.filing.figures_sha256,
        "agp_cents": original.filing.figures["tax"]["agp_cents"] + 20_000,
    }
    gaming_tax = filing_package.return_now_figures(queued.package["figures"])["tax_cents"]
    assert gaming_tax["now_cents"] == queued.package["tax"]["now_cents"] != gaming_tax["filed_cents"]
    assert delivery.deliver(theirs.pk) == "delivered" and delivery.deliver(queued.pk) == "delivered"
    held = ReceivedFiling.objects.get(amends__isnull=False)
    assert held.amends.receipt_number == FilingReceipt.objects.get(filing=original.filing).receipt_number
    assert verify_filings(held.agency).ok
    from core.periods import Quarter
    from registry.queries import quarter_rows

    rows = [r for r in quarter_rows(held.agency, Quarter.parse(held.quarter)) if r["amends"]]
    assert [(r["site"], r["amended_figure"], r["amended_delta_cents"]) for r in rows] == [
        (site.name, "AGP of the licensee's sites", 20_000)
    ]
