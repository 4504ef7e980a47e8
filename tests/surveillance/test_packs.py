"""Surveillance (ND 99-01.3-08-04) is North Dakota's law. At a Washington or New York site the
records may still be kept, as the house's own control: no $2 cap binds, no ND deadline or
overlap rule refuses, and no page or refusal cites North Dakota; at an ND site, the same acts
cite ND and nothing of WA or NY."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from cardroom.access import SESSION_KEY
from cardroom.models import Role
from cardroom.wager_caps import check_max_wager
from core.moments import gaming_date_of
from surveillance import queries as surveillance_queries
from surveillance import services
from surveillance.services.outages import report_outage
from tests.conformance.words import ND_WORDS, OTHER_WORDS, law_words_in
from tests.factories import TableFactory

TABLES = {
    "ND": {"max_wager_cents": 2500},
    "WA-HB": {"max_wager_cents": 5000, "payout_rounding": "down", "decks": 2, "dealt_from": "hand"},
    "WA-BJ": {"max_wager_cents": 2500, "banker": "player", "min_bank_cents": 30000, "decks": 1},
    "NY": {"max_wager_cents": 500, "decks": 1, "tie_option": 2, "blackjack_payout": "2:1", "double_on": "ten_eleven"},
}
PAGES = [
    "/surveillance/",
    "/surveillance/outages/",
    "/surveillance/review-log/",
    "/surveillance/equipment/",
    "/surveillance/recordings/",
    "/surveillance/programs/",
]


def as_pack(site, code):
    site.jurisdiction = code
    site.save()
    return TableFactory(site=site, number=1, **TABLES[code])


def manager_at(client, cast, site, code: str) -> None:
    """`site` under the pack `code`, the gaming manager signed in with it as their current site."""
    as_pack(site, code)
    client.force_login(cast[Role.GAMING_MANAGER].user)
    session = client.session
    session[SESSION_KEY] = site.pk
    session.save()


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_an_unrepaired_outage_caps_no_wager_at_another_packs_site(site, cast, code):
    table = as_pack(site, code)
    began = datetime.now(ZoneInfo(site.time_zone)) - timedelta(days=10)
    report_outage(
        acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="camera", began_at=began, description="Camera dark"
    )
    assert surveillance_queries.wager_cap(table) == (None, "")
    check_max_wager(table, 50000)  # the registered check refuses nothing either
    site.jurisdiction = "ND"  # the same outage at an ND site: ND 99-01.3-08-04(7)'s $2 cap
    site.save()
    table.site.refresh_from_db()
    cap, reason = surveillance_queries.wager_cap(table)
    assert cap == 200 and "ND 99-01.3-08-04(7)" in reason
    assert not law_words_in(reason, OTHER_WORDS)


@pytest.mark.parametrize(
    ("code", "cited"), [("WA-HB", "House control"), ("NY", "House control"), ("ND", "ND 99-01.3-08-04(7)")]
)
def test_a_repair_dated_in_the_future_is_refused_citing_the_sites_pack(site, cast, code, cited):
    table = as_pack(site, code)
    manager = cast[Role.SHIFT_MANAGER]
    now = datetime.now(ZoneInfo(site.time_zone))
    outage = report_outage(
        acting_user=manager.user, table=table, kind="camera", began_at=now - timedelta(hours=2), description="Dark"
    )
    with pytest.raises(ValidationError) as refusal:
        services.record_outage_repair(
            acting_user=manager.user, outage=outage, repaired_at=now + timedelta(hours=1), description="Ahead"
        )
    message = refusal.value.message_dict["repaired_at"][0]
    assert message.startswith(f"{cited}: a record cannot be dated in the future")
    assert not law_words_in(message, OTHER_WORDS if code == "ND" else ND_WORDS)


@pytest.mark.parametrize(
    ("code", "cited"), [("WA-HB", "House control"), ("NY", "House control"), ("ND", "ND 99-01.3-08-04(5)")]
)
def test_a_dealer_handling_video_is_refused_citing_the_sites_pack(site, cast, code, cited):
    table = as_pack(site, code)
    now = datetime.now(ZoneInfo(site.time_zone))
    with pytest.raises(PermissionDenied) as refusal:
        services.record_recording(
            acting_user=cast[Role.DEALER].user,
            table=table,
            gaming_date=gaming_date_of(site, now - timedelta(hours=3)),
            started_at=now - timedelta(hours=3),
            stopped_at=now - timedelta(hours=1),
        )
    text = str(refusal.value)
    assert text.startswith(f"{cited}: ")
    foreign = OTHER_WORDS if code == "ND" else ND_WORDS
    assert not law_words_in(text, foreign), text


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_no_state_overlap_rule_refuses_two_recordings_at_another_packs_site(site, cast, code):
    """08-04(5)(c)'s ten-minute overlap is North Dakota's: elsewhere two recordings of a table
    that meet without overlapping are recorded."""
    table = as_pack(site, code)
    manager = cast[Role.SHIFT_MANAGER]
    now = datetime.now(ZoneInfo(site.time_zone)).replace(microsecond=0)
    services.record_recording(
        acting_user=manager.user,
        table=table,
        gaming_date=gaming_date_of(site, now - timedelta(hours=4)),
        started_at=now - timedelta(hours=4),
        stopped_at=now - timedelta(hours=2),
    )
    services.record_recording(
        acting_user=manager.user,
        table=table,
        gaming_date=gaming_date_of(site, now - timedelta(hours=2)),
        started_at=now - timedelta(hours=2),
        stopped_at=now - timedelta(hours=1),
    )


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_the_surveillance_pages_cite_no_nd_rule_at_another_packs_site(client, cast, site, code):
    manager_at(client, cast, site, code)
    for url in PAGES:
        page = client.get(url)
        assert page.status_code == 200, url
        text = page.content.decode()
        assert not law_words_in(text, ND_WORDS), (url, law_words_in(text, ND_WORDS))


@pytest.mark.parametrize(("code", "named"), [("WA-HB", False), ("WA-BJ", False), ("NY", False), ("ND", True)])
def test_the_vendor_purchase_form_names_the_attorney_general_only_at_a_north_dakota_site(
    client, cast, site, code, named
):
    manager_at(client, cast, site, code)
    text = client.get("/surveillance/equipment/").content.decode()
    assert 'name="approved_vendor"' in text
    assert ("Vendor approved by the attorney general" in text) == named
    assert ("attorney general" in text.lower()) == named


def test_the_surveillance_pages_cite_nd_at_an_nd_site(client, cast, site):
    as_pack(site, "ND")
    client.force_login(cast[Role.GAMING_MANAGER].user)
    session = client.session
    session[SESSION_KEY] = site.pk
    session.save()
    text = client.get("/surveillance/outages/").content.decode()
    assert "ND 99-01.3-08-04(7): not repaired within 48 hours" in text
    assert not law_words_in(text, OTHER_WORDS)


@pytest.mark.parametrize(("code", "form"), [("ND", "SFN 19857"), ("WA-HB", ""), ("NY", "")])
def test_a_sample_evaluation_names_the_form_only_where_the_pack_states_it(site, cast, code, form):
    table = as_pack(site, code)
    manager = cast[Role.SHIFT_MANAGER]
    change = services.record_site_change(
        acting_user=manager.user, site=site, table=table, kind="table_moved", changed_on=date(2026, 6, 1)
    )
    sample = services.submit_sample(acting_user=manager.user, change=change, submitted_on=date(2026, 6, 10))
    evaluation = services.record_sample_evaluation(
        acting_user=manager.user, submission=sample, evaluated_on=date(2026, 6, 20), outcome="approved"
    )
    assert evaluation.form_reference == form


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY", "ND"])
def test_the_review_programs_page_states_the_packs_program_or_the_houses_own(client, cast, site, code):
    """ND 99-01.3-08-04(9) opens a program after a low-hold quarter; a pack whose law states no such
    program (nor any low-hold rule) reads the house's own, never "after a low-hold quarter"; the
    numbers are the limits' words (the pack's, or the house's), not the page's."""
    manager_at(client, cast, site, code)
    text = client.get("/surveillance/programs/").content.decode()
    rule = text[text.index('id="program-rule"') :].split("</p>")[0]
    assert "for each active table, at least one hour per week, for 6 continuous weeks" in rule
    if code == "ND":
        assert "ND 99-01.3-08-04(9): after a low-hold quarter" in rule
    else:
        assert "House control: its law states no video review program" in rule and "low-hold" not in rule


@pytest.mark.parametrize(
    ("code", "label"), [("ND", "21 #1"), ("WA-HB", "Blackjack #1"), ("WA-BJ", "Blackjack #1"), ("NY", "Black Jack #1")]
)
def test_the_surveillance_pages_name_a_table_in_its_sites_pack_words(client, cast, site, code, label):
    """A table is "21 #1" where the pack asks forms to reference twenty-one as "21" (ND
    99-01.3-08-05(3)(a)); elsewhere it is the pack's game, "Blackjack #1", never "21"."""
    table = as_pack(site, code)
    began = datetime.now(ZoneInfo(site.time_zone)) - timedelta(hours=3)
    report_outage(
        acting_user=cast[Role.SHIFT_MANAGER].user, table=table, kind="camera", began_at=began, description="Dark"
    )
    client.force_login(cast[Role.GAMING_MANAGER].user)
    session = client.session
    session[SESSION_KEY] = site.pk
    session.save()
    for url in ("/surveillance/", "/surveillance/outages/"):
        text = client.get(url).content.decode()
        assert f"<td>{label}</td>" in text, url
        assert ("21 #" in text) == (code == "ND"), url


@pytest.mark.parametrize(
    ("code", "label"), [("WA-BJ", "Started (table opened for play)"), ("ND", "Started (chips first available)")]
)
def test_a_recording_starts_when_chips_are_first_available_only_where_the_house_has_chips(
    client, cast, site, code, label
):
    """A fees room's chips are its players' (Tacoma): its recording starts when the table opens."""
    manager_at(client, cast, site, code)
    text = client.get("/surveillance/recordings/").content.decode()
    assert f">{label}</label>" in text and "chips first available" not in text.replace(label, "")
