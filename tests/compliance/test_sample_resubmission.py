"""ND 99-01.3-08-04(11): "If the quality of the sample recording is not satisfactory, an
organization and vendor shall resolve the deficiency and resubmit a sample recording for
approval." A sample evaluated not satisfactory with nothing sent after it is flagged by the
nightly checks (`sample_resubmission_owed`), once per rejected sample, with no deadline the rule
does not set; never at another pack's site. Everything through the surveillance services and
the scheduled task."""

from datetime import date

import pytest

from cardroom.models import Role
from compliance import tasks
from compliance.labels import figure_rows
from compliance.models import Alert
from surveillance import services
from surveillance.models import EquipmentChange
from tests.conformance.words import OTHER_WORDS, law_words_in
from tests.surveillance.test_packs import as_pack

NIGHT = "2026-11-20"  # the nightly run judges the week ending on this day


def installed(site, table, manager, on=date(2026, 11, 2)):
    services.install_equipment(
        acting_user=manager.user, site=site, kind="camera", make_model="Dome 4K", installed_on=on, table=table
    )
    return EquipmentChange.objects.get(site=site)


def sent_and_evaluated(manager, change, sent, evaluated, outcome, findings=""):
    sample = services.submit_sample(acting_user=manager.user, change=change, submitted_on=sent)
    services.record_sample_evaluation(
        acting_user=manager.user,
        submission=sample,
        evaluated_on=evaluated,
        outcome=outcome,
        evaluator="Attorney General's office",
        findings=findings,
    )
    return sample


def owed(site):
    return list(Alert.objects.filter(site=site, rule="sample_resubmission_owed").order_by("id"))


def test_a_sample_found_not_satisfactory_is_flagged_until_one_is_sent_again(site, table, cast):
    manager = cast[Role.GAMING_MANAGER]
    change = installed(site, table, manager)
    first = sent_and_evaluated(
        manager, change, date(2026, 11, 5), date(2026, 11, 9), "resubmit", findings="Table number not visible."
    )
    tasks.run_daily_checks(NIGHT)
    [alert] = owed(site)
    assert alert.citation == "ND 99-01.3-08-04(11)"
    assert alert.title == "Video sample not satisfactory: resubmission owed"
    assert alert.action_required.startswith("ND 99-01.3-08-04(11): the sample recording sent on 2026-11-05")
    assert "resolve the deficiency and resubmit a sample recording for approval" in alert.action_required
    assert "Table number not visible." in alert.action_required and "table 1" in alert.action_required
    assert alert.due_date is None  # the rule sets no deadline, so none is promised
    assert alert.period_key == "2026-11-09"
    assert sorted(figure_rows(alert.figures)) == [  # PostgreSQL's jsonb keeps no key order
        ("Found not satisfactory on", "2026-11-09"),
        ("Sample sent on", "2026-11-05"),
        ("Table", "1"),
    ]
    assert not law_words_in(alert.action_required, OTHER_WORDS)

    tasks.run_daily_checks(NIGHT)  # re-running is safe: the same rejected sample, the same alert
    assert owed(site) == [alert]

    # Resolved and sent again: the next night opens nothing more; a second rejection is its own alert.
    second = sent_and_evaluated(manager, change, date(2026, 11, 12), date(2026, 11, 16), "resubmit")
    assert second.resubmission_of_id == first.pk
    tasks.run_daily_checks(NIGHT)
    assert [a.period_key for a in owed(site)] == ["2026-11-09", "2026-11-16"]
    sent_and_evaluated(manager, change, date(2026, 11, 17), date(2026, 11, 19), "approved")
    tasks.run_daily_checks(NIGHT)
    assert len(owed(site)) == 2


def test_an_approved_sample_and_one_resubmitted_open_nothing(site, table, cast):
    manager = cast[Role.GAMING_MANAGER]
    change = installed(site, table, manager)
    sent_and_evaluated(manager, change, date(2026, 11, 5), date(2026, 11, 6), "resubmit")
    sent_and_evaluated(manager, change, date(2026, 11, 8), date(2026, 11, 10), "approved")
    tasks.run_daily_checks(NIGHT)
    assert owed(site) == []


def test_an_evaluation_entered_after_its_week_is_found_the_next_night(site, table, cast):
    """The nightly run judges the last week, but an owed resubmission stands as of the night: an
    evaluation dated a month back, entered today, is flagged tonight."""
    manager = cast[Role.GAMING_MANAGER]
    change = installed(site, table, manager, on=date(2026, 9, 1))
    sent_and_evaluated(manager, change, date(2026, 9, 10), date(2026, 10, 1), "resubmit")
    tasks.run_daily_checks(NIGHT)
    assert [a.period_key for a in owed(site)] == ["2026-10-01"]


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_another_packs_site_is_never_told_to_resubmit(site, cast, code):
    """A pack whose law states no sample recording (08-04(11) is North Dakota's) opens nothing."""
    table = as_pack(site, code)
    manager = cast[Role.GAMING_MANAGER]
    change = installed(site, table, manager)
    sent_and_evaluated(manager, change, date(2026, 11, 5), date(2026, 11, 9), "resubmit")
    tasks.run_daily_checks(NIGHT)
    assert owed(site) == []
