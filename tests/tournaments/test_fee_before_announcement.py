"""A tournament fee dated before the tournament's announcement (issue 36). ND 99-01.3-08-15 has
the rules, the entry fee among them, disclosed to players but states no time for it, and every fee
collected belongs on the register (08-15(1), 08-16(1)(e)): so the fee is recorded and flagged to
the gaming manager as a house control, never refused (tournaments.services.flag_fee_before_announcement)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from cardroom.models import Role
from compliance.models import Alert
from tournaments.models import TournamentFee

from .test_api import announce

pytestmark = pytest.mark.django_db

RULE = "tournament_fee_before_announcement"


def test_a_fee_dated_before_the_announcement_is_recorded_and_flagged_as_a_house_control(client_for, cast, site):
    api = client_for(cast[Role.SHIFT_MANAGER])
    now = timezone.now().replace(microsecond=0)
    tid = announce(api, site, announced_at=(now - timedelta(hours=1)).isoformat()).json()["id"]
    early = api.post(
        f"/api/v1/tournaments/{tid}/entries/",
        {"kind": "entry", "player_name": "Ann Lee", "collected_at": (now - timedelta(hours=2)).isoformat()},
        format="json",
    )
    assert early.status_code == 201, early.content  # on the register: 08-15(1), 08-16(1)(e)
    fee = TournamentFee.objects.get(pk=early.json()["id"])
    assert fee.collected_at == now - timedelta(hours=2)
    alert = Alert.objects.get(rule=RULE)
    assert (
        alert.citation == "House control" and alert.site_id == site.pk and alert.subject == f"tournament-fee:{fee.pk}"
    )
    assert alert.action_required.startswith("House control: entry fee")
    assert "Ann Lee" in alert.action_required and "before the tournament was announced" in alert.action_required
    assert "ND 99-01.3-08-15" in alert.action_required  # the disclosure rule, cited through the site's pack
    assert alert.figures["fee"] == fee.pk and alert.figures["tournament"] == tid and "fee_collected_at" in alert.figures
    listed = client_for(cast[Role.GAMING_MANAGER]).get("/api/v1/alerts/", {"site": site.pk}).json()["results"]
    assert [a["rule"] for a in listed if a["rule"] == RULE] == [RULE]


def test_a_fee_at_or_after_the_announcement_raises_no_flag(client_for, cast, site):
    api = client_for(cast[Role.SHIFT_MANAGER])
    now = timezone.now().replace(microsecond=0)
    announced = now - timedelta(hours=1)
    tid = announce(api, site, announced_at=announced.isoformat()).json()["id"]
    same = api.post(
        f"/api/v1/tournaments/{tid}/entries/",
        {"kind": "entry", "player_name": "Ann Lee", "collected_at": announced.isoformat()},
        format="json",
    )
    later = api.post(f"/api/v1/tournaments/{tid}/entries/", {"kind": "entry", "player_name": "Bo Ng"}, format="json")
    assert same.status_code == 201 and later.status_code == 201
    assert not Alert.objects.filter(rule=RULE).exists()


def test_a_void_of_an_early_fee_is_not_flagged_again(client_for, cast, site):
    api = client_for(cast[Role.SHIFT_MANAGER])
    now = timezone.now().replace(microsecond=0)
    tid = announce(api, site, announced_at=(now - timedelta(minutes=30)).isoformat()).json()["id"]
    fee = api.post(
        f"/api/v1/tournaments/{tid}/entries/",
        {"kind": "entry", "player_name": "Ann Lee", "collected_at": (now - timedelta(hours=1)).isoformat()},
        format="json",
    ).json()
    voided = api.post(
        f"/api/v1/tournaments/{tid}/entries/{fee['id']}/void/",
        {"reason": "rung twice", "voided_at": (now - timedelta(minutes=50)).isoformat()},
        format="json",
    )
    assert voided.status_code == 201, voided.content
    assert Alert.objects.filter(rule=RULE).count() == 1
