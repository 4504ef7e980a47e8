"""An amendment recorded at the moment a gaming manager sends the earlier filings (house control:
the state gets a return and every change to it): whichever of the two transactions commits
second sees the other's, so the amendment is queued once, by one of them, never by neither.

On PostgreSQL the two are crossed on purpose, in both orders, each on its own connection: the
amending entry holds its transaction open once it found its filing not yet sent while the
earlier filings are sent; and the sending holds its transaction open once it read the
filing's amendments while the amending entry runs. SQLite's writers queue (IMMEDIATE
transactions), so there the two never cross; the tests pin the same outcome."""

import pytest

from accounting import services as books
from accounting.models import BooksClose, FilingAmendment
from cardroom.models import Organization
from core import hooks
from core.audit_verify import verify_chain
from core.models import AuditEvent
from statefiling import services
from statefiling.models import Submission
from tests.accounting.test_quarter_filing import DAY, ENTERED, Q3
from tests.race_support import OtherTerminal, while_writing

pytestmark = [pytest.mark.usefixtures("quarter_played"), pytest.mark.django_db(transaction=True)]


def _filed_then_linked(manager, site, org):
    """The quarter filed with no registry linked, then the link made: the filing waits unsent."""
    filing = books.file_quarter(acting_user=manager.user, site=site, quarter=Q3)
    services.connect_registry(
        acting_user=manager.user,
        organization=org,
        jurisdiction="ND",
        url="http://127.0.0.1:9",
        credential="lic_" + "a" * 20,
    )
    assert not Submission.objects.exists()
    return filing


def _adjust(user, site, table):
    """A $50 drop correction of a closed day of the filed quarter: it amends the filing."""
    return books.record_adjustment(
        acting_user=user,
        books_close=BooksClose.objects.get(site=site, gaming_date=DAY),
        table=table,
        field="drop",
        amount_cents=5_000,
        reason="a $50 bill found in box 1 after the filing",
        recorded_on=ENTERED,
    )


def _send(user, org):
    return services.send_earlier_filings(
        acting_user=user, organization=Organization.objects.get(pk=org.pk), jurisdiction="ND"
    )


def _queued_once_after_its_filing(filing) -> FilingAmendment:
    amendment = FilingAmendment.objects.get(filing=filing)
    order = list(Submission.objects.filter(filing=filing).order_by("pk").values_list("amendment_id", flat=True))
    assert order == [None, amendment.pk]  # the return, then its amendment, once
    assert verify_chain().ok
    return amendment


def test_an_amendment_found_unsent_while_the_earlier_filings_are_sent_goes_with_them(
    monkeypatch, manager, site, table, org
):
    filing = _filed_then_linked(manager, site, org)
    sender = OtherTerminal(lambda user: _send(user, org), manager.user_id)
    answers = hooks.AMENDMENT_RECORDED.answers

    def then_send(amendment):
        # The amending entry's transaction, open: its filing was found unsent, nothing queued.
        assert not Submission.objects.filter(amendment=amendment).exists()
        sender.run_meanwhile()

    monkeypatch.setattr(hooks.AMENDMENT_RECORDED, "answers", lambda: [*answers(), then_send])
    _adjust(manager.user, site, table)
    sent = sender.result()

    assert [s.filing_id for s in sent] == [filing.pk], sent
    amendment = _queued_once_after_its_filing(filing)
    event = AuditEvent.objects.get(action="registry.earlier_filings_sent")
    assert event.after["amendments"] == [amendment.pk]  # the sending saw it and queued it


def test_an_amendment_recorded_while_the_earlier_filings_are_sent_finds_its_filing_sent(
    monkeypatch, manager, site, table, org
):
    filing = _filed_then_linked(manager, site, org)
    # The sending has queued the filing and read its amendments (none): the adjustment comes now.
    adjusting = while_writing(
        monkeypatch, services, "record_event", lambda user: _adjust(user, site, table), manager.user
    )
    sent = _send(manager.user, org)
    adjusted = adjusting.result()

    assert not isinstance(adjusted, Exception), adjusted
    assert [s.filing_id for s in sent] == [filing.pk]
    amendment = _queued_once_after_its_filing(filing)
    assert amendment.adjustment_id == adjusted.pk
    event = AuditEvent.objects.get(action="registry.earlier_filings_sent")
    assert event.after["amendments"] == []  # the amendment queued itself, after the sending committed
