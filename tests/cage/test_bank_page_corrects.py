"""The bank page's "corrects" choice holds the counts the page lists, not every count ever
(issue 18: it grew, a query per count, with the cage's history); an older count is corrected
through the API."""

from datetime import timedelta

from django.test import Client

from cage import services
from cage.forms import RECENT_BANK_COUNTS
from cage.models import BankCount
from cardroom.models import Role

from .conftest import DAY

CASH = [{"value_cents": 10000, "quantity": 20}]


def test_the_corrects_choice_holds_the_newest_counts_the_page_lists(site, chips, cast):
    cashier = cast[Role.CASHIER]
    days = RECENT_BANK_COUNTS // 2 + 1  # a start and an end count a day: two more than the page lists
    for n in range(days):
        for kind in ("start", "end"):
            services.record_bank_count(
                acting_user=cashier.user, site=site, gaming_date=DAY - timedelta(days=n), kind=kind, cash=CASH, chips=[]
            )
    client = Client()
    client.force_login(cashier.user)
    response = client.get("/cage/")
    offered = list(response.context["form"].fields["corrects"].queryset)
    newest = BankCount.objects.filter(site=site).order_by("-gaming_date", "-counted_at", "-pk")
    assert len(offered) == RECENT_BANK_COUNTS
    assert set(offered) == set(newest[:RECENT_BANK_COUNTS])
    assert [c.pk for c in response.context["counts"]] == [c.pk for c in newest[:RECENT_BANK_COUNTS]]

    oldest = newest.last()
    refused = client.post(
        "/cage/",
        {
            "form": "count",
            "gaming_date": oldest.gaming_date.isoformat(),
            "kind": oldest.kind,
            "corrects": oldest.pk,
            "reason": "Miscounted",
            "cash_10000": "3",
        },
    )
    assert refused.status_code == 400
    assert refused.context["form"].errors["corrects"] == [
        f"House control: the bank page corrects one of the {RECENT_BANK_COUNTS} newest counts it lists; "
        "correct an older count through the API."
    ]
    assert not BankCount.objects.filter(corrects=oldest).exists()

    newer = newest.first()
    accepted = client.post(
        "/cage/",
        {
            "form": "count",
            "gaming_date": newer.gaming_date.isoformat(),
            "kind": newer.kind,
            "corrects": newer.pk,
            "reason": "Miscounted",
            "cash_10000": "3",
        },
    )
    assert accepted.status_code == 302 and BankCount.objects.filter(corrects=newer).exists()
