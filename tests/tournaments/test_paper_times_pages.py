"""Tournament pages take the time on the paper (issue 36): an announcement and a void of a fee or a
prize from paper keep their time and the entry time beside it, shown on the page; a time in the
future, or a void before what it voids, is refused inline with its rule and writes nothing."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from cardroom.models import Role
from tournaments import services
from tournaments.models import Tournament, TournamentFee, TournamentPrize

from .conftest import announce
from .test_pages import FORM, page

pytestmark = pytest.mark.django_db


def _field(site, moment) -> str:
    return moment.astimezone(ZoneInfo(site.time_zone)).strftime("%Y-%m-%dT%H:%M")


def _shown(site, moment) -> str:
    return moment.astimezone(ZoneInfo(site.time_zone)).strftime("%Y-%m-%d %H:%M")


def _minute(moment):
    return moment.replace(second=0, microsecond=0)


def test_an_announcement_from_paper_keeps_its_time(client, cast, site):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert "From paper (an earlier time)" in page(client.get("/tournaments/new/"))
    announced = _minute(timezone.now() - timedelta(hours=2))
    before = timezone.now()
    response = client.post(
        "/tournaments/new/",
        {**FORM, "gaming_date": timezone.localdate().isoformat(), "announced_at": _field(site, announced)},
    )
    assert response.status_code == 302, page(response)
    tournament = Tournament.objects.get()
    assert tournament.announced_at == announced and tournament.entered_at >= before
    header = page(client.get(f"/tournaments/{tournament.pk}/"))
    header = header[header.index('id="announced"') :]
    header = header[: header.index("</p>")]
    assert f"Announced {_shown(site, announced)}" in header
    assert f"entered {_shown(site, tournament.entered_at)}" in header


def test_an_announcement_dated_in_the_future_is_refused_on_the_form(client, cast, site):
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    typed = _field(site, timezone.now() + timedelta(hours=2))
    response = client.post(
        "/tournaments/new/", {**FORM, "gaming_date": timezone.localdate().isoformat(), "announced_at": typed}
    )
    assert response.status_code == 400
    text = page(response)
    assert 'id="error-announced_at"' in text and "a record cannot be dated in the future" in text
    assert f'value="{typed}"' in text and '<details class="from-paper mb-2" id="paper-id_announced_at" open>' in text
    assert not Tournament.objects.exists()


@pytest.fixture
def played(cast, site):
    """A tournament announced three hours ago, Ann Lee's entry fee two hours ago, her prize an hour ago."""
    boss = cast[Role.SHIFT_MANAGER]
    now = timezone.now()
    tournament = announce(boss, site, at=now - timedelta(hours=3))
    fee = services.collect_fee(
        acting_user=boss.user,
        tournament=tournament,
        kind="entry",
        player_name="Ann Lee",
        at=_minute(now - timedelta(hours=2)),
    )
    prize = services.award_prize(
        acting_user=boss.user,
        tournament=tournament,
        player=fee.player,
        round_name="Final",
        kind="cash",
        amount_cents=15000,
        at=_minute(now - timedelta(hours=1)),
    )
    return tournament, fee, prize


@pytest.mark.parametrize("kind", ["fee", "prize"])
def test_a_void_from_paper_keeps_its_time_and_the_page_shows_both_times(client, cast, site, played, kind):
    tournament, fee, prize = played
    row, occurred, url = (
        (fee, fee.collected_at, f"/tournaments/{tournament.pk}/entries/{fee.pk}/void/")
        if kind == "fee"
        else (prize, prize.awarded_at, f"/tournaments/{tournament.pk}/prizes/{prize.pk}/void/")
    )
    if kind == "fee":
        services.void_prize(acting_user=cast[Role.SHIFT_MANAGER].user, prize=prize, reason="wrong player")
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    assert f'id="void-{kind}-{row.pk}"' in page(client.get(f"/tournaments/{tournament.pk}/"))
    voided = occurred + timedelta(minutes=20)
    before = timezone.now()
    response = client.post(url, {"reason": "rung twice", "voided_at": _field(site, voided)})
    assert response.status_code == 302, page(response)
    model = TournamentFee if kind == "fee" else TournamentPrize
    void = model.objects.get(voids=row)
    assert (void.collected_at if kind == "fee" else void.awarded_at) == voided and void.entered_at >= before
    text = page(client.get(f"/tournaments/{tournament.pk}/"))
    table = text[text.index('id="fees"' if kind == "fee" else 'id="prizes"') :]
    table = table[: table.index("</table>")]
    void_row = next(r for r in table.split("<tr>") if "rung twice" in r)
    assert voided.astimezone(ZoneInfo(site.time_zone)).strftime("%H:%M") in void_row
    assert _shown(site, void.entered_at) in void_row


@pytest.mark.parametrize("kind", ["fee", "prize"])
@pytest.mark.parametrize("when", ["future", "before"])
def test_a_void_in_the_future_or_before_what_it_voids_is_refused_at_its_row(client, cast, site, played, kind, when):
    tournament, fee, prize = played
    row, occurred, url, rule, words = (
        (
            fee,
            fee.collected_at,
            f"/tournaments/{tournament.pk}/entries/{fee.pk}/void/",
            "ND 99-01.3-08-16(1)(e)",
            "a void corrects a fee already on the register",
        )
        if kind == "fee"
        else (
            prize,
            prize.awarded_at,
            f"/tournaments/{tournament.pk}/prizes/{prize.pk}/void/",
            "ND 99-01.3-08-16(1)(f)",
            "a void corrects a prize already on the register",
        )
    )
    if when == "future":
        moment, words = timezone.now() + timedelta(hours=2), "a record cannot be dated in the future"
    else:
        moment = occurred - timedelta(minutes=10)
    typed = _field(site, moment)
    client.force_login(cast[Role.SHIFT_MANAGER].user)
    response = client.post(url, {"reason": "rung twice", "voided_at": typed})
    assert response.status_code == 400
    text = page(response)
    form = text[text.index(f'id="void-{kind}-{row.pk}"') :]
    form = form[: form.index("</form>")]
    assert 'id="void-errors"' in form and words in form and f'value="{typed}"' in form
    if when == "before":
        assert rule in form
    assert not TournamentFee.objects.filter(voids__isnull=False).exists()
    assert not TournamentPrize.objects.filter(voids__isnull=False).exists()


def test_an_entry_fee_and_a_prize_from_paper_keep_their_times_and_a_prize_before_the_entry_is_refused(
    client, cast, site
):
    boss = cast[Role.SHIFT_MANAGER]
    tournament = announce(boss, site, at=timezone.now() - timedelta(hours=3))
    client.force_login(boss.user)
    collected = _minute(timezone.now() - timedelta(hours=2))
    entered = client.post(
        f"/tournaments/{tournament.pk}/entries/", {"player_name": "Ann Lee", "collected_at": _field(site, collected)}
    )
    assert entered.status_code == 302
    fee = TournamentFee.objects.get()
    assert fee.collected_at == collected
    prize = {"player": fee.player_id, "round_name": "Final", "kind": "cash", "amount_cents": "150.00"}
    early = client.post(
        f"/tournaments/{tournament.pk}/prizes/",
        {**prize, "awarded_at": _field(site, collected - timedelta(minutes=30))},
    )
    assert early.status_code == 400
    text = page(early)
    assert 'id="error-awarded_at"' in text and "ND 99-01.3-08-15(4): a prize goes to a player who has entered" in text
    assert not TournamentPrize.objects.exists()
    awarded = collected + timedelta(minutes=45)
    assert (
        client.post(f"/tournaments/{tournament.pk}/prizes/", {**prize, "awarded_at": _field(site, awarded)}).status_code
        == 302
    )
    assert TournamentPrize.objects.get().awarded_at == awarded
