"""A filed quarter's package is built and sent only from what was filed. The figures
(`QuarterFiling.figures`) and the dealers' hold frozen beside them (`FiledDealers`) are append-only
by database triggers, each with its SHA-256; a row changed behind them (a database owner, a
restore) was sent to the state as filed. Now each attempt recomputes both digests: altered, the
package is not sent (nothing reaches the registry), the problem is named where the operator sees it
(the filing's state at `/state-filings/`, the quarter's receipt statement, the audit log) as the
audit log's verification names an altered row, citing the pack's rule; set right, the same package
goes under its Idempotency-Key. A row rewritten together with its stored digest is read against
the row event the audit chain recorded when it was written, and withheld the same way. The registry
runs in this process (registry_in_process)."""

import json
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from accounting import published
from accounting.models import QuarterFiling
from core.audit import append_events
from core.audit_rows import ROW_BASELINE, canonical_row, row_event, row_fields
from core.audit_verify import verify_chain
from core.models import AuditEvent
from registry import services as registry
from registry.models import ReceivedFiling
from statefiling import as_filed, queries, services, tasks
from statefiling.delivery import FILINGS_PATH
from statefiling.models import FiledDealers, Submission
from tests.core.test_audit_tamper import _tamper

from .registry_in_process import URL
from .test_amendments import file_q3

pytestmark = pytest.mark.usefixtures("quarter_played")

ND_RULE = "ND 99-01.3-08-16(1)(g)"  # the quarterly summary the package carries
FILINGS = QuarterFiling._meta.db_table
DEALERS = FiledDealers._meta.db_table


def alter_dealers(filing_id: int, by: int) -> None:
    _tamper(DEALERS, f"UPDATE {DEALERS} SET dealers_without_identifier = dealers_without_identifier + %s "
                     "WHERE filing_id = %s", [by, filing_id])  # fmt: skip


def write_figures(filing_id: int, figures: dict) -> None:
    value = "%s::jsonb" if connection.vendor == "postgresql" else "%s"
    _tamper(FILINGS, f"UPDATE {FILINGS} SET figures = {value} WHERE id = %s", [json.dumps(figures), filing_id])


def less_agp(figures: dict) -> dict:
    """The figures with the tax's AGP a dollar lower."""
    return {**figures, "tax": {**figures["tax"], "agp_cents": figures["tax"]["agp_cents"] - 100}}


def rewrite_figures(filing_id: int, figures: dict) -> None:
    """The figures and the digest stored beside them, rewritten together: they hash as stored."""
    value = "%s::jsonb" if connection.vendor == "postgresql" else "%s"
    sql = f"UPDATE {FILINGS} SET figures = {value}, figures_sha256 = %s WHERE id = %s"
    _tamper(FILINGS, sql, [json.dumps(figures), published.figures_digest(figures), filing_id])


def rewrite_dealers(filing_id: int, without_identifier: int) -> None:
    """The frozen hold and its stored digest, rewritten together."""
    dealers = FiledDealers.objects.get(filing_id=filing_id).dealers
    sql = f"UPDATE {DEALERS} SET dealers_without_identifier = %s, dealers_sha256 = %s WHERE filing_id = %s"
    _tamper(DEALERS, sql, [without_identifier, FiledDealers.digest(dealers, without_identifier), filing_id])


def row_event_seq(row) -> int:
    return AuditEvent.objects.get(row_table=row._meta.db_table, row_pk=row.pk).seq


def filed_q3(client_for, manager, site) -> tuple:
    """The manager's API client, the quarter's submission, its filing and its frozen hold."""
    api = client_for(manager)
    submission = file_q3(api, site)
    filing = QuarterFiling.objects.get(pk=submission.filing_id)
    return api, submission, filing, FiledDealers.objects.get(filing=filing)


def posted(registry) -> list:
    return [r for r in registry.requests if r == ("POST", FILINGS_PATH)]


def state_of(api, site, submission: Submission) -> dict:
    rows = api.get(f"/api/v1/sites/{site.pk}/state-filings/").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    return next(r for r in rows if r["filing"] == submission.filing_id and r["amendment"] is None)


def withheld_then_sent(api, site, org, submission: Submission, registry, named: str, restore) -> str:
    """Driven by the task and the sweep: withheld (named, nothing posted), then, the row set
    right, sent once under the same key. What was shown withheld."""
    assert tasks.deliver_filing(submission.pk) == "withheld"
    assert tasks.deliver_pending() == 0  # the sweep tries again: still withheld
    assert posted(registry) == [] and not ReceivedFiling.objects.exists()

    shown = state_of(api, site, submission)
    assert shown["state"] == "withheld" and shown["receipt_number"] is None
    assert shown["last_error"].startswith(f"{ND_RULE}: organization {org.pk} (chain org-{org.pk}), {named}")
    assert "until it is set right" in shown["last_error"]
    statement = queries.receipt_statement(SimpleNamespace(filing_id=submission.filing_id), site)
    assert statement == f"Not sent to the state registry: {shown['last_error']}"
    events = AuditEvent.objects.filter(action="quarter.package_withheld", object_id=str(submission.pk))
    assert [e.after["problem"] for e in events] == [shown["last_error"]]  # once, not at every sweep

    restore()
    assert tasks.deliver_pending() == 1
    assert len(posted(registry)) == 1
    held = ReceivedFiling.objects.get()
    assert held.idempotency_key == submission.idempotency_key
    assert Submission.objects.get(pk=submission.pk).package_sha256 == submission.package_sha256
    assert state_of(api, site, submission)["state"] == "delivered"
    assert tasks.deliver_pending() == 0 and len(posted(registry)) == 1  # nothing sent twice
    return shown["last_error"]


def test_a_dealers_hold_altered_behind_the_triggers_is_not_sent_until_set_right(
    linked, in_process_registry, client_for, manager, site, org
):
    api, submission, _, frozen = filed_q3(client_for, manager, site)
    alter_dealers(submission.filing_id, 3)
    named = f"table {DEALERS} id {frozen.pk}: dealers, dealers_without_identifier no longer hash to the SHA-256 filed, "
    restore = lambda: alter_dealers(submission.filing_id, -3)  # noqa: E731
    withheld_then_sent(api, site, org, submission, in_process_registry, named + frozen.dealers_sha256, restore)


def test_filed_figures_altered_behind_the_triggers_are_not_sent_until_set_right(
    linked, in_process_registry, client_for, manager, site, org
):
    api, submission, filing, _ = filed_q3(client_for, manager, site)
    figures = filing.figures
    write_figures(filing.pk, less_agp(figures))
    named = f"table {FILINGS} id {filing.pk}: figures no longer hash to the SHA-256 filed, {filing.figures_sha256}"
    withheld_then_sent(
        api, site, org, submission, in_process_registry, named, lambda: write_figures(filing.pk, figures)
    )


def test_a_queued_package_whose_figures_differ_from_those_filed_is_not_sent_until_set_right(
    linked, in_process_registry, client_for, manager, site, org
):
    """The outbox row is not append-only: a package whose figures no longer are the filed ones
    (its `figures_sha256` left as filed) is withheld, its row named, until it carries them again."""
    api = client_for(manager)
    submission = file_q3(api, site)
    package = submission.package
    figures = {**package["figures"], "reference": "forged"}
    Submission.objects.filter(pk=submission.pk).update(package={**package, "figures": figures})
    named = f"table {Submission._meta.db_table} id {submission.pk}: the package's figures do not hash to the SHA-256"
    restore = lambda: Submission.objects.filter(pk=submission.pk).update(package=package)  # noqa: E731
    withheld_then_sent(api, site, org, submission, in_process_registry, named, restore)


def test_an_earlier_quarter_whose_frozen_hold_was_altered_is_not_built_until_set_right(
    in_process_registry, licensee, client_for, manager, site, org
):
    """Filed before the organization linked: its package is built when the gaming manager sends it;
    from an altered row it is refused, named, and nothing is queued; set right, it goes."""
    api = client_for(manager)
    filed = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert filed.status_code == 201, filed.content
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=issued.secret
    )
    alter_dealers(filed.json()["id"], 1)
    with pytest.raises(ValidationError) as refused:
        services.send_earlier_filings(acting_user=manager.user, organization=org, jurisdiction="ND")
    assert refused.value.message_dict["filing"][0].startswith(f"{ND_RULE}: organization {org.pk} (chain org-{org.pk})")
    assert f"table {DEALERS} id " in refused.value.message_dict["filing"][0]
    assert not Submission.objects.exists() and posted(in_process_registry) == []

    alter_dealers(filed.json()["id"], -1)
    [sent] = services.send_earlier_filings(acting_user=manager.user, organization=org, jurisdiction="ND")
    assert tasks.deliver_filing(sent.pk) == "delivered"
    assert ReceivedFiling.objects.get().idempotency_key == sent.idempotency_key


def test_filed_figures_rewritten_with_a_digest_that_matches_them_are_not_sent_until_set_right(
    linked, in_process_registry, client_for, manager, site, org
):
    """The stored digest is no witness of a row rewritten with it: the row's event is."""
    api, submission, filing, _ = filed_q3(client_for, manager, site)
    figures, filed_sha = filing.figures, filing.figures_sha256
    forged = less_agp(figures)
    rewrite_figures(filing.pk, forged)
    stored = QuarterFiling.objects.get(pk=filing.pk)  # hashes to its stored digest: only the row event tells
    assert published.figures_digest(stored.figures) == stored.figures_sha256 != filed_sha
    named = f"table {FILINGS} id {filing.pk}: figures, figures_sha256 differ from event #{row_event_seq(filing)} ("
    shown = withheld_then_sent(
        api, site, org, submission, in_process_registry, named, lambda: rewrite_figures(filing.pk, figures)
    )
    assert f"figures_sha256 was '{filed_sha}', is '{published.figures_digest(forged)}'" in shown
    assert QuarterFiling.objects.get(pk=filing.pk).figures_sha256 == filed_sha


def test_a_dealers_hold_rewritten_with_a_digest_that_matches_it_is_not_sent_until_set_right(
    linked, in_process_registry, client_for, manager, site, org
):
    api, submission, _, frozen = filed_q3(client_for, manager, site)
    was = frozen.dealers_without_identifier
    rewrite_dealers(submission.filing_id, was + 2)
    named = f"table {DEALERS} id {frozen.pk}: "  # the fields in the order the event's JSON keeps them
    differ = f" differ from event #{row_event_seq(frozen)} ("
    restore = lambda: rewrite_dealers(submission.filing_id, was)  # noqa: E731
    shown = withheld_then_sent(api, site, org, submission, in_process_registry, named, restore)
    assert shown.split(": ")[2].split(differ)[0] in (
        "dealers_sha256, dealers_without_identifier",
        "dealers_without_identifier, dealers_sha256",
    )
    assert f"dealers_without_identifier was {was}, is {was + 2}" in shown
    assert f"dealers_sha256 was '{frozen.dealers_sha256}', is '{FiledDealers.digest(frozen.dealers, was + 2)}'" in shown


def test_an_earlier_quarter_recorded_by_its_baseline_event_is_sent_and_one_with_no_event_is_not(
    in_process_registry, licensee, client_for, manager, site, org, monkeypatch
):
    """A quarter filed before rows were covered (cardroom 0004 gave each existing row a
    `row.baseline` event, QuarterFiling's table being older; no registry link then) is read against
    that event and sent when the gaming manager sends it; a filing row with no event at all was
    written behind the application's back: refused, named, nothing queued."""
    api = client_for(manager)
    with monkeypatch.context() as unrecorded:
        unrecorded.setattr(QuarterFiling, "audit_rows", False)
        # its frozen hold still recorded: found through the filing as when the filing is covered
        unrecorded.setattr(FiledDealers, "audit_organization", "filing__site__organization")
        filed = api.post(f"/api/v1/sites/{site.pk}/quarter-filing/", {"quarter": "2026Q3"}, format="json")
    assert filed.status_code == 201, filed.content
    filing = QuarterFiling.objects.get(pk=filed.json()["id"])
    assert not AuditEvent.objects.filter(row_table=FILINGS, row_pk=filing.pk).exists()
    issued = registry.issue_credential(acting_user=None, licensee=licensee)
    services.connect_registry(
        acting_user=manager.user, organization=org, jurisdiction="ND", url=URL, credential=issued.secret
    )
    with pytest.raises(ValidationError) as refused:
        services.send_earlier_filings(acting_user=manager.user, organization=org, jurisdiction="ND")
    assert refused.value.message_dict["filing"] == [
        f"{ND_RULE}: organization {org.pk} (chain org-{org.pk}), table {FILINGS} id {filing.pk}: "
        f"the row has no event recording it: {as_filed.NOT_SENT}."
    ]
    assert not Submission.objects.exists() and posted(in_process_registry) == []

    fields = row_fields(QuarterFiling)  # the event the migration wrote, as it wrote it
    canonical = canonical_row(fields, [getattr(filing, f.attname) for f in fields])
    with transaction.atomic():
        append_events(org.pk, [row_event(QuarterFiling, filing.pk, canonical, action=ROW_BASELINE)])
    [sent] = services.send_earlier_filings(acting_user=manager.user, organization=org, jurisdiction="ND")
    assert tasks.deliver_filing(sent.pk) == "delivered"
    assert ReceivedFiling.objects.get().idempotency_key == sent.idempotency_key
    assert verify_chain(organization_id=org.pk).ok  # the audit log's verification agrees

    figures = filing.figures  # rewritten with its digest: the baseline event tells, as a row event does
    rewrite_figures(filing.pk, {**figures, "reference": "forged"})
    problem = as_filed.altered(QuarterFiling.objects.get(pk=filing.pk), None)
    assert f"table {FILINGS} id {filing.pk}: figures, figures_sha256 differ from event #" in problem


def test_reading_a_filing_against_its_row_events_takes_a_few_queries_by_index(
    linked, client_for, manager, site, django_assert_max_num_queries
):
    """Two queries a row (the row by id, its event by (row_table, row_pk) with its successor's
    link): each event read is bounded to the row's id, not a walk of the chain."""
    _, _, filing, frozen = filed_q3(client_for, manager, site)
    filing = QuarterFiling.objects.select_related("site").get(pk=filing.pk)
    assert AuditEvent.objects.count() > 50
    with django_assert_max_num_queries(4) as captured:
        assert as_filed.altered(filing, frozen) == ""
    events = [q["sql"] for q in captured.captured_queries if f'FROM "{AuditEvent._meta.db_table}"' in q["sql"]]
    assert len(events) == 2
    for sql, row in zip(events, (filing, frozen), strict=True):
        assert f"\"row_table\" = '{row._meta.db_table}'" in sql and f'"row_pk" <= {row.pk}' in sql, sql
