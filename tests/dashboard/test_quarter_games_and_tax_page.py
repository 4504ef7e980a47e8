"""The quarter page: each game beside its own threshold, cash profit not known without a bank
count, and the other games' AGP recorded by a gaming manager (N.D.C.C. 53-06.1-12)."""

from datetime import date

from accounting.models import OtherGamesAgp
from cardroom.models import Role
from compliance.thresholds import ensure_seeded
from surveillance.services import set_surveillance_status
from tests.accounting.scenario import Scenario
from tests.factories import TableFactory
from tests.reports.test_kind_daily import download, pdf_text, run_report

DAY = date(2026, 8, 14)


def _play(site, people):
    ensure_seeded()
    scenario = Scenario(site, people)
    for number, game, fills in ((1, "21", 90_001), (2, "PW", 0)):
        table = TableFactory(site=site, number=number, game=game)
        scenario.tray(table, DAY, "opener", 100_000)
        scenario.tray(table, DAY, "closer", 100_000)
        if fills:
            scenario.slip(table, DAY, "fill", fills, number=1)
        scenario.drop(table, DAY, 100_000)


def test_the_quarter_page_shows_each_game_beside_its_threshold_and_cash_not_known(client, cast, site, people):
    _play(site, people)
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    games = html[html.index('id="games"') :]
    row_21 = games[games.index('data-game="21"') : games.index('data-game="PW"')]
    assert "10.00%" in row_21 and "below" in row_21 and "not below" not in row_21  # 9.999% < 10%
    row_pw = games[games.index('data-game="PW"') : games.index('data-game="total"')]
    assert "15.00%" in row_pw and "not below" in row_pw
    assert 'id="cash-profit">not known<' in html
    # The days' twelve columns in the smaller type, inside a box of their own: at 1366 px a quarter of
    # five-figure days made the whole page scroll sideways (1,389 px), its Long (short) cut off.
    assert '<div class="table-responsive"><table class="table table-sm table-striped small" id="days">' in html
    assert "Net cash long (short) for the quarter: <strong>not known</strong>" in html
    assert 'id="other-games-form"' not in html  # an auditor reads, does not record


def test_a_gaming_manager_records_and_corrects_the_other_games_agp_on_the_page(client, cast, site, people):
    _play(site, people)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    url = f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3"
    assert 'id="other-games-form"' in client.get(url).content.decode()
    post = f"/dashboard/quarter/other-games/?site={site.pk}"
    client.post(post, {"quarter": "2026Q3", "amount": "49,000.00", "note": "Pull tabs"})
    html = client.get(url).content.decode()
    assert 'id="other-games-agp">$49,000.00<' in html
    client.post(post, {"quarter": "2026Q3", "amount": "59,000.00", "note": "Bingo added", "correct": "1"})
    html = client.get(url).content.decode()
    assert 'id="other-games-agp">$59,000.00<' in html
    assert [o.agp_cents for o in OtherGamesAgp.objects.order_by("id")] == [4_900_000, 5_900_000]
    refused = client.post(post, {"quarter": "2026Q3", "amount": "1.00", "note": ""}, follow=True)
    assert "N.D.C.C. 53-06.1-12" in refused.content.decode()
    long = client.post(post, {"quarter": "2026Q3", "amount": "1.00", "note": "x" * 2001, "correct": "1"}, follow=True)
    assert "The note is at most 2,000 characters (house control)." in long.content.decode()  # it stored 5,000
    client.force_login(cast[Role.AUDITOR].user)
    assert client.post(post, {"quarter": "2026Q3", "amount": "1.00", "note": "x"}).status_code == 403
    assert OtherGamesAgp.objects.count() == 2


def test_the_dealers_page_shows_wheel_operators_as_the_api_does(client, client_for, cast, site, people):
    from tests.accounting.scenario import shift

    dealer = cast[Role.DEALER]
    scenario = Scenario(site, people)
    wheel = TableFactory(site=site, number=5, game="PW")
    shift(scenario, wheel, dealer, DAY, 20, 26)
    scenario.tray(wheel, DAY, "opener", 100_000)
    scenario.tray(wheel, DAY, "closer", 90_000)
    scenario.drop(wheel, DAY, 40_000)
    client.force_login(cast[Role.AUDITOR].user)
    url = f"/dashboard/dealers/?site={site.pk}&start={DAY}&end={DAY}"
    assert f'data-dealer="{dealer.pk}"' not in client.get(url).content.decode()  # no twenty-one shifts
    html = client.get(url + "&game=PW").content.decode()
    api = (
        client_for(cast[Role.AUDITOR])
        .get(f"/api/v1/employees/{dealer.pk}/percent-of-hold/?start={DAY}&end={DAY}&site={site.pk}&game=PW")
        .json()
    )
    assert api["total"]["agp_cents"] == 30_000 and api["site_hold_ratio"] == "0.750000"
    row = html[html.index(f'data-dealer="{dealer.pk}"') :]
    assert "$300.00" in row[: row.index("</tr>")] and "75.00%" in row[: row.index("</tr>")]
    assert "Wheel operators (paddlewheel)</strong>" in html
    assert "<th>Wheel operator</th>" in html and "<th>Dealer</th>" not in html  # as the report heads its column


def test_a_net_cash_short_is_written_as_the_pdf_writes_it_its_sign_in_words(client, cast, site, people):
    from accounting import summaries
    from core.money import format_money
    from core.periods import Quarter

    _play(site, people)
    scenario = Scenario(site, people)
    scenario.bank(DAY, "start", 500_000, 300_000)
    scenario.bank(DAY, "end", 300_000, 300_000)  # less cash than the day made: short
    short = summaries.quarter_summary(site, Quarter(2026, 3)).long_short_cents
    assert short < 0
    client.force_login(cast[Role.AUDITOR].user)
    html = client.get(f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3").content.decode()
    line = html[html.index('id="net-cash"') :].split("</p>")[0]
    assert f"short (an expense) for the quarter: <strong>{format_money(-short)}</strong>" in line and "-$" not in line


def test_the_other_games_form_posted_at_a_washington_site_is_refused_in_its_own_words(client, cast, site, people):
    """The form is not offered where the site's pack levies no gaming tax; a post of it anyway
    (an old page, a crafted request) is refused as a house control, with none of North Dakota's
    words (its AGP, its gaming tax citation), whatever the amount, and records nothing."""
    from tests.conformance.words import ND_WORDS, law_words_in

    _play(site, people)
    site.jurisdiction = "WA-HB"
    site.save(update_fields=["jurisdiction"])
    client.force_login(cast[Role.GAMING_MANAGER].user)
    post = f"/dashboard/quarter/other-games/?site={site.pk}"
    for amount in ("1,000.00", "a thousand"):
        refused = client.post(post, {"quarter": "2026Q3", "amount": amount, "note": "Pull tabs"}, follow=True)
        text = refused.content.decode().replace("&#x27;", "'")
        assert "House control: " in text and "rules levy no tax on the organization's other games" in text
        assert not law_words_in(text, ND_WORDS), law_words_in(text, ND_WORDS)
    assert not OtherGamesAgp.objects.exists()


def test_the_games_say_whether_a_game_below_its_threshold_starts_the_review_at_the_site(
    client, client_for, cast, site, people
):
    """ND 99-01.3-08-04(9) is "for a site that requires video surveillance": a game "below" its
    threshold at a site without it owes no review, and the page and the report say which, as of
    the quarter's end (as the nightly check judges it)."""
    _play(site, people)
    manager = cast[Role.GAMING_MANAGER]
    client.force_login(manager.user)
    api = client_for(manager)
    url = f"/dashboard/quarter/?site={site.pk}&quarter=2026Q3"

    def said() -> tuple[str, str]:
        page = client.get(url).content.decode().replace("&#x27;", "'")
        pdf = " ".join(
            pdf_text(download(api, run_report(api, kind="quarterly", site=site.pk, quarter="2026Q3"))).split()
        )
        return page, pdf

    none = f"{site.name} does not require video surveillance (judged at the quarter's end, 2026-09-30): a game below its threshold starts no review there."
    page, pdf = said()
    assert f'id="low-hold-review">{none}</p>' in page and none in pdf
    set_surveillance_status(manager.user, site, True, date(2026, 9, 30), date(2026, 9, 30), "quarter's activity")
    required = f"{site.name} requires video surveillance (judged at the quarter's end, 2026-09-30): a game below its threshold starts the review."
    page, pdf = said()
    assert f'id="low-hold-review">{required}</p>' in page and required in pdf and none not in pdf
