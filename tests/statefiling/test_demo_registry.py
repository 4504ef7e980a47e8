"""The demo's state registry (statefiling.demo): the organization's filed quarters received
with their receipts on both sides, its chain head anchored, the state auditor `state` reading
them and the state supervisor `statesup` beside them; run again, it sends nothing twice."""

import pytest
from django.contrib.auth import get_user_model

from accounting import services as accounting
from accounting.models import FilingAmendment
from compliance.models import Alert
from core.periods import Quarter
from core.rules import HOUSE_CONTROL
from registry.models import Credential, ReceivedAlert, ReceivedAnchor, ReceivedFiling, Regulator, RegulatorRole
from registry.services import verify_filings
from statefiling import demo
from statefiling.models import AmendmentReceipt, FilingReceipt, Submission
from tests.accounting.test_quarter_filing import _after_the_quarter, quarter_played, table  # noqa: F401  (fixtures)

pytestmark = pytest.mark.usefixtures("quarter_played")


@pytest.fixture
def filed_both(manager, site, other_site):
    return [
        accounting.file_quarter(acting_user=manager.user, site=s, quarter=Quarter(2026, 3)) for s in (site, other_site)
    ]


def test_the_demo_registry_holds_the_filed_quarters_and_the_chain_head(filed_both, org, manager, client):
    world = {"organization": org, "people": {"gm": manager}}
    demo.extend_demo(world)
    demo.extend_demo(world)  # again: nothing is sent twice

    received = ReceivedFiling.objects.order_by("seq")
    assert [f.site_ref for f in received] == [f.site_id for f in filed_both]
    receipts = {r.filing_id: r.receipt_number for r in FilingReceipt.objects.all()}
    assert receipts == {f.pk: r.receipt_number for f, r in zip(filed_both, received, strict=True)}
    assert Submission.objects.filter(delivered_at__isnull=False).count() == 2
    assert ReceivedAnchor.objects.filter(chain=f"org-{org.pk}").exists()
    # The alerts of North Dakota's rules; the house's own controls stay at home.
    assert set(ReceivedAlert.objects.values_list("alert_ref", flat=True)) == set(
        Alert.objects.filter(organization=org, site__jurisdiction="ND")
        .exclude(citation=HOUSE_CONTROL)
        .values_list("pk", flat=True)
    )
    assert all(c.startswith("ND ") for c in ReceivedAlert.objects.values_list("citation", flat=True))
    agency = Regulator.objects.get(user__username="state").agency
    assert agency.name == demo.AGENCY and verify_filings(agency).ok

    client.force_login(get_user_model().objects.get(username="state"))
    page = client.get("/registry/filings/").content.decode()
    assert all(r.receipt_number in page for r in received)

    # The agency's supervisor `statesup`, made once too, offered the supervisor's acts.
    [supervisor] = Regulator.objects.filter(user__username="statesup")
    assert (supervisor.agency, supervisor.role) == (agency, RegulatorRole.STATE_SUPERVISOR)
    client.force_login(supervisor.user)
    assert 'id="register-a-licensee"' in client.get("/registry/").content.decode()

    # The credential the filings, the anchor and the alerts came with reads as used, as a request
    # authenticated with it would note it: not "never" beside what it sent.
    [credential] = Credential.objects.filter(licensee__agency=agency)
    assert credential.last_used_at is not None
    page = client.get(f"/registry/licensees/{credential.licensee_id}/").content.decode()
    row = page[page.index(f'<tr id="credential-{credential.pk}">') :].split("</tr>")[0]
    assert ">never<" not in row


def test_the_demo_sends_each_quarters_pdf_and_the_amendments_recorded_before_the_link(
    org, manager, site, other_site, client_for, client
):
    """The demo's steps in their order: the quarter's reports (reports.demo), the filing, then the
    registry (statefiling.demo), which delivers as the product does: each quarter's PDF, the return
    as filed, with its package, and the amendment recorded before the link after its filing."""
    from reports import demo as reports_demo
    from reports.models import ReportFile

    from .test_amendments_before_link import record_amendments

    world = {"organization": org, "people": {"gm": manager}, "sites": {"busy": site, "quiet": other_site}}
    reports_demo.extend_demo(world)
    filed_both = [
        accounting.file_quarter(acting_user=manager.user, site=s, quarter=Quarter(2026, 3)) for s in (site, other_site)
    ]
    [adjusted, _other_games] = record_amendments(client_for(manager), site, site.tables.get(number=1), org)
    for _ in range(2):  # again: nothing is generated or sent twice
        reports_demo.extend_demo(world)
        demo.extend_demo(world)

    originals = {f.site_ref: f for f in ReceivedFiling.objects.filter(amends__isnull=True)}
    amendments = FilingAmendment.objects.count()  # the other games' AGP amends both sites' returns
    assert set(originals) == {site.pk, other_site.pk} and ReceivedFiling.objects.count() == 2 + amendments == 5
    for s in (site, other_site):
        report = ReportFile.objects.get(run__site=s, run__kind="quarterly")
        [document] = originals[s.pk].documents.all()
        assert (document.pdf_sha256, bytes(document.content)) == (report.pdf_sha256, bytes(report.pdf))
    amended = ReceivedFiling.objects.filter(amends=originals[site.pk]).order_by("seq")
    assert [f.receipt_number for f in amended] == list(
        AmendmentReceipt.objects.filter(filing=filed_both[0]).order_by("pk").values_list("receipt_number", flat=True)
    )
    assert AmendmentReceipt.objects.filter(amendment=adjusted).exists()
    # Each amended-return alert is answered by the receipt of the amended return it asked for: it
    # no longer reads "file an amended return if it is due" beside the state's receipt of it.
    receipts = {f"amendment:{r.amendment_id}": r for r in AmendmentReceipt.objects.all()}
    alerts = Alert.objects.filter(rule="filed_return_amended")
    assert alerts.count() == len(receipts) == amendments
    for alert in alerts:
        [resolved] = alert.steps.filter(kind="resolved")
        [documented] = alert.steps.filter(kind="documented")
        receipt = receipts[alert.subject]
        assert resolved.by == manager.user and f"receipt {receipt.receipt_number}" in documented.note

    client.force_login(get_user_model().objects.get(username="state"))
    page = client.get("/registry/filings/").content.decode()
    for s in (site, other_site):
        row = page[page.index(f">{originals[s.pk].receipt_number}</a>") :].split("</tr>")[0]
        # The return's report is the one it was filed with, generated before filing: the link says
        # so, as the PDF's own "Not filed when this report was generated" is of that moment.
        assert "quarterly report as filed (PDF)</a>" in row and "before the return was filed" in row


def test_the_demos_registry_expects_its_licensee_from_the_first_quarter_it_filed_and_reads_each_return_against_its_due_date(
    filed_both, org, manager
):
    """Loaded on 2026-11-20, after 2026Q3's return fell due (October 31): the demo's registry
    expects the licensee's returns from 2026Q3, the first quarter the demo filed, so no return it
    received reads "not expected (from 2026Q4)" beside its receipt. The receipt is the registry's
    own, received that day: the returns read late, as a return received after its due date does
    (the demo never dates a receipt in the past)."""
    from datetime import date

    from registry import queries
    from registry.models import Licensee

    demo.extend_demo({"organization": org, "people": {"gm": manager}})

    licensee = Licensee.objects.get(licence_number=org.licence_number)
    assert licensee.expected_from == date(2026, 7, 1)
    view = queries.licensees(licensee.agency)[0]
    assert (view.filings, len(view.late), view.missing) == (2, 2, [])
    rows = queries.quarter_rows(licensee.agency, Quarter(2026, 3))
    assert [(r["due_on"], r["timeliness"]) for r in rows] == [(date(2026, 10, 31), "late")] * 2


def returns_read_not_expected() -> list[str]:
    """Each original return received at any of the demo's registries that the registry reads "not
    expected" (its quarter before the licensee's `expected_from`): on the quarter page (its
    timeliness, where the pack sets a due date) or by the registry's rule itself, for every pack."""
    from registry import queries
    from registry.models import Agency

    found = []
    for agency in Agency.objects.order_by("name"):
        received = ReceivedFiling.objects.filter(agency=agency, amends__isnull=True).select_related("licensee")
        for filing in received:
            if not queries.expected(filing.licensee, Quarter.parse(filing.quarter)):
                found.append(f"{agency.jurisdiction} {filing.receipt_number}: before {filing.licensee.expected_from}")
        for quarter in sorted({f.quarter for f in received}):
            rows = queries.quarter_rows(agency, Quarter.parse(quarter), shown=True)
            found += [
                f"{agency.jurisdiction} {r['receipt_number']}: {r['timeliness']}"
                for r in rows
                if r["timeliness"] == "not expected"
            ]
    return found


def test_no_return_the_demo_files_reads_not_expected_at_any_of_its_registries(filed_both, org, manager, client):
    """Every registry of the demo (North Dakota's, Washington's two, New York's) expects its
    licensee from the first quarter the demo filed for it: North Dakota's 2026Q3, filed on the
    load day, is expected and judged against its due date; the houses, which file none yet, are
    expected from the current quarter (2026Q4, loaded 2026-11-20), their first."""
    from datetime import date

    from cardroom import pack_demo
    from registry.models import Licensee

    world = pack_demo.extend_demo({"organization": org, "people": {"gm": manager}})
    demo.extend_demo(world)

    assert ReceivedFiling.objects.filter(amends__isnull=True).count() == 2
    assert returns_read_not_expected() == []
    expected = dict(Licensee.objects.values_list("agency__jurisdiction", "expected_from"))
    assert expected == {
        "ND": date(2026, 7, 1),
        "WA-HB": date(2026, 10, 1),
        "WA-BJ": date(2026, 10, 1),
        "NY": date(2026, 10, 1),
    }
    client.force_login(get_user_model().objects.get(username="state"))
    for page in ("/registry/", "/registry/quarter/?quarter=2026Q3"):
        body = client.get(page).content.decode()
        assert "not expected" not in body and "expected from 2026Q4" not in body


def test_loaded_before_the_quarters_return_falls_due_the_demos_registry_expects_it_and_reads_it_on_time(
    org, manager, site, other_site
):
    from datetime import UTC, date, datetime

    import time_machine

    from registry import queries
    from registry.models import Licensee

    with time_machine.travel(datetime(2026, 10, 20, 18, tzinfo=UTC), tick=True):
        for s in (site, other_site):
            accounting.file_quarter(acting_user=manager.user, site=s, quarter=Quarter(2026, 3))
        demo.extend_demo({"organization": org, "people": {"gm": manager}})
        licensee = Licensee.objects.get(licence_number=org.licence_number)
        view = queries.licensees(licensee.agency)[0]
    assert licensee.expected_from == date(2026, 7, 1)
    assert [(q.quarter, q.state) for q in view.quarters] == [("2026Q3", "on time")] * 2


def test_the_demo_gives_each_other_pack_its_registry_with_its_auditor_and_the_houses_as_licensees(org, manager, client):
    """A regulator of each pack the demo's sites are under reads its own registry: Washington's
    house-banked rooms, its blackjack table-fee rooms and New York's games of chance, each with
    its auditor and the house under that law as its licensee, linked with its alerts shared."""
    from cardroom import pack_demo
    from registry.models import Agency
    from statefiling.models import RegistryLink

    world = pack_demo.extend_demo({"organization": org, "people": {"gm": manager}})
    demo.extend_demo(world)
    demo.extend_demo(world)  # again: each agency, auditor, licensee and link made once
    assert sorted(Agency.objects.values_list("jurisdiction", flat=True)) == ["ND", "NY", "WA-BJ", "WA-HB"]
    houses = {"WA-HB": "Evergreen Gaming Club", "WA-BJ": "Evergreen Gaming Club", "NY": "Hudson Valley"}
    for code, (name, login, _first, _last) in demo.PACK_AGENCIES.items():
        agency = Agency.objects.get(name=name)
        assert agency.jurisdiction == code
        [licensee] = agency.licensees.all()
        assert licensee.name.startswith(houses[code])
        link = RegistryLink.objects.get(organization__name=licensee.name, jurisdiction=code)
        assert link.share_alerts
        regulator = Regulator.objects.get(user__username=login)
        assert regulator.agency == agency
        client.force_login(regulator.user)
        page = client.get("/registry/").content.decode()
        assert licensee.name in page and "North Dakota" not in page and "Prairie" not in page


def test_the_demos_registries_register_each_licensee_with_its_audit_event_once(org, manager):
    """Each licensee of the demo's registries is registered as an agency registers one
    (`registry.services.register_licensee`): its `registry.licensee_registered` event in the
    registry's audit log, once, the demo run again (it created them with no event at all)."""
    from collections import Counter

    from cardroom import pack_demo
    from core.models import AuditEvent
    from registry.models import Licensee

    world = pack_demo.extend_demo({"organization": org, "people": {"gm": manager}})
    demo.extend_demo(world)
    demo.extend_demo(world)
    licensees = {str(pk) for pk in Licensee.objects.values_list("pk", flat=True)}
    events = AuditEvent.objects.filter(action="registry.licensee_registered")
    assert len(licensees) == 4  # North Dakota's, and Washington's two and New York's
    assert Counter(events.values_list("object_id", flat=True)) == Counter(licensees)
    for event in events:
        licensee = Licensee.objects.get(pk=event.object_id)
        assert event.after["licence_number"] == licensee.licence_number
        assert event.after["jurisdiction"] == licensee.agency.jurisdiction
