"""Voiding a table fee on the fees page (issue 36): from paper it keeps the time on the paper and
the entry time beside it; a time in the future or before the fee is refused at the fee's row,
with the rule, and writes nothing."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from cardroom.models import Role
from fees import services
from fees.models import FeeCollection

pytestmark = pytest.mark.django_db


def _local(site, moment):
    return moment.astimezone(ZoneInfo(site.time_zone))


def _field(site, moment) -> str:
    """The browser's datetime-local value: the site's local time, to the minute."""
    return _local(site, moment).strftime("%Y-%m-%dT%H:%M")


@pytest.fixture
def fee(cast, bj_table):
    collected = (timezone.now() - timedelta(hours=2)).replace(second=0, microsecond=0)
    return services.record_fee(
        acting_user=cast[Role.PIT_BOSS].user,
        table=bj_table,
        basis="per_seat",
        period_minutes=30,
        rate_cents=300,
        count=3,
        amount_cents=900,
        collected_at=collected,
    )


def test_a_paper_void_keeps_its_time_and_the_page_shows_both_times(client, cast, fee):
    site = fee.site
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    form = client.get("/fees/").content.decode()
    assert f'id="void-fee-{fee.pk}"' in form and "From paper (an earlier time)" in form
    voided = fee.collected_at + timedelta(minutes=40)
    before = timezone.now()
    response = client.post(f"/fees/{fee.pk}/void/", {"reason": "rung twice", "voided_at": _field(site, voided)})
    assert response.status_code == 302, response.content.decode()
    void = FeeCollection.objects.get(voids=fee)
    assert void.collected_at == voided and void.amount_cents == -900 and void.reason == "rung twice"
    assert void.entered_at >= before  # entered now, dated from the paper
    page = client.get("/fees/").content.decode()
    row = page[page.index(f'id="fee-{void.pk}"') :]
    row = row[: row.index("</tr>")]
    assert _local(site, voided).strftime("%Y-%m-%d %H:%M") in row
    assert _local(site, void.entered_at).strftime("%Y-%m-%d %H:%M") in row
    assert f"void of fee {fee.pk}: rung twice" in row
    assert f'id="void-fee-{fee.pk}"' not in page  # a voided fee offers no second void


def test_a_blank_time_is_now(client, cast, fee):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    before = timezone.now()
    assert client.post(f"/fees/{fee.pk}/void/", {"reason": "wrong table", "voided_at": ""}).status_code == 302
    assert FeeCollection.objects.get(voids=fee).collected_at >= before


@pytest.mark.parametrize(
    "when, words",
    [
        (timedelta(hours=3), "a record cannot be dated in the future"),
        (-timedelta(hours=3), "a void corrects a fee already collected"),
    ],
    ids=["future", "before-the-fee"],
)
def test_a_void_in_the_future_or_before_the_fee_is_refused_at_its_row(client, cast, fee, when, words):
    site = fee.site
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    moment = (timezone.now() + when) if when > timedelta(0) else fee.collected_at + when
    typed = _field(site, moment)
    response = client.post(f"/fees/{fee.pk}/void/", {"reason": "rung twice", "voided_at": typed})
    assert response.status_code == 400
    page = response.content.decode().replace("&#x27;", "'")
    form = page[page.index(f'id="void-fee-{fee.pk}"') :]
    form = form[: form.index("</form>")]
    assert 'id="void-errors"' in form and "House control" in form and words in form
    assert f'value="{typed}"' in form and "rung twice" in form  # what was typed stays on the form
    assert "voided_at" not in form.split('id="void-errors"')[1]  # the rule's words, not the field's name
    assert not FeeCollection.objects.filter(voids=fee).exists()


def test_who_may_void_on_the_page(client, cast, fee):
    client.force_login(cast[Role.PIT_BOSS].user)  # collects, does not void (house control)
    assert f'id="void-fee-{fee.pk}"' not in client.get("/fees/").content.decode()
    refused = client.post(f"/fees/{fee.pk}/void/", {"reason": "rung twice", "voided_at": ""})
    assert refused.status_code == 403
    assert not FeeCollection.objects.filter(voids=fee).exists()


def test_a_paper_fee_keeps_its_collected_time(client, cast, bj_table):
    site = bj_table.site
    client.force_login(cast[Role.PIT_BOSS].user)
    collected = (timezone.now() - timedelta(minutes=90)).replace(second=0, microsecond=0)
    form = {"basis": "per_player", "period_minutes": "30", "rate_cents": "2", "count": "4", "amount_cents": "8"}
    response = client.post("/fees/", {**form, "table": bj_table.pk, "collected_at": _field(site, collected)})
    assert response.status_code == 302
    assert FeeCollection.objects.get().collected_at == collected
    future = client.post(
        "/fees/", {**form, "table": bj_table.pk, "collected_at": _field(site, timezone.now() + timedelta(hours=1))}
    )
    assert future.status_code == 400 and "cannot be dated in the future" in future.content.decode()
    assert 'id="error-collected_at"' in future.content.decode()
    assert FeeCollection.objects.count() == 1


def test_a_void_is_confirmed_with_what_comes_next(client, cast, fee):
    client.force_login(cast[Role.GAMING_MANAGER].user)
    voided = client.post(f"/fees/{fee.pk}/void/", {"reason": "wrong table", "voided_at": ""}, follow=True)
    assert voided.status_code == 200
    assert f"Fee {fee.pk} of" in voided.content.decode() and "voided: record the right fee anew" in (
        voided.content.decode()
    )


def test_the_same_void_form_sent_twice_is_told_already_recorded(client, cast, fee):
    from tests.page_support import form_token

    client.force_login(cast[Role.GAMING_MANAGER].user)
    token = form_token(client.get("/fees/").content.decode(), f"void-fee-{fee.pk}")
    data = {"reason": "wrong table", "voided_at": "", "form_token": token}
    assert client.post(f"/fees/{fee.pk}/void/", data).status_code == 302
    again = client.post(f"/fees/{fee.pk}/void/", data, follow=True)
    assert again.status_code == 200 and "Already recorded" in again.content.decode()
    assert FeeCollection.objects.filter(voids=fee).count() == 1
