"""ND 99-01.3-08-04(5)(b) judged in the database: only the table days whose recordings leave part
of the play (opener to closer) uncovered come back, at the sites that ever required
surveillance; their gaps are measured in Python as before (compliance.providers.
recordings_not_covering_play, issue 18). The findings are those of the pass in Python that
fetched every opener, closer and recording."""

import itertools
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.models import Role, Table
from compliance import providers, rules
from compliance.thresholds import ThresholdBook
from floor.models import DealerShift, TableInventory
from surveillance import coverage, queries, special_events
from surveillance.models import Recording, SurveillanceStatus
from tests.factories import TableFactory

from .test_providers import make_day

START, END = date(2026, 11, 1), date(2026, 11, 20)
PLAY_MINUTES = 600
US = timedelta(microseconds=1)

# Recordings as (start, stop) in minutes from the opener; the closer is at PLAY_MINUTES.
PATTERNS = {
    "none": [],
    "exact": [(0, 600)],
    "starts a minute late": [(1, 600)],
    "stops a minute early": [(0, 599)],
    "beyond both ends": [(-60, 660)],
    "touching": [(0, 300), (300, 600)],
    "overlapping": [(0, 320), (300, 600)],
    "a minute apart": [(0, 300), (301, 600)],
    "a microsecond apart": [(0, 300), (timedelta(minutes=300) + US, 600)],
    "a microsecond of overlap": [(0, timedelta(minutes=300) + US), (300, 600)],
    "nested": [(0, 600), (100, 200)],
    "same start": [(0, 100), (0, 600)],
    "entered out of order": [(300, 600), (0, 200)],
    "a long one bridges a short one's gap": [(0, 500), (100, 200), (450, 600)],
    "outside the play only": [(-120, -60), (700, 800)],
    "ends at the opener": [(-60, 0)],
    "ends at the opener, then covers": [(-60, 0), (0, 600)],
    "starts at the closer": [(0, 599), (600, 700)],
    "three with two gaps": [(0, 100), (110, 200), (210, 600)],
    "covered after a gap by a later start": [(0, 100), (50, 150), (200, 600)],
    "covered, and one after the closer": [(0, 600), (700, 800)],
    "one before the opener, then covered": [(-120, -60), (0, 600)],
}
# How the table day's play is bounded: the closer after the opener, none yet, at it, before it.
CLOSERS = {"later": PLAY_MINUTES, "none": None, "at the opener": 0, "before the opener": -30}


def _moment(day: date, minutes) -> datetime:
    opener = datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=19)
    return opener + (minutes if isinstance(minutes, timedelta) else timedelta(minutes=minutes))


def _python_pass(sites, start, end):
    """The judgement as it was made in Python before issue 18 (every opener, closer and
    recording of the sites' window fetched)."""
    by_id = {s.pk: s for s in sites}
    required = providers._status_lookup(list(by_id))
    tables = {t.pk: t for t in Table.objects.filter(site_id__in=by_id)}
    counts = defaultdict(dict)
    for table_id, day, kind, counted_at in TableInventory.objects.filter(
        table__site_id__in=by_id, gaming_day__gaming_date__range=(start, end), kind__in=["opener", "closer"]
    ).values_list("table_id", "gaming_day__gaming_date", "kind", "counted_at"):
        counts[(tables[table_id], day)][kind] = counted_at
    temporary = {t.pk for t, _ in counts if t.location != Table.Location.REGULAR}
    events = queries.site_special_events(list(by_id), *queries.special_event_window(start, end)) if temporary else {}
    recordings = defaultdict(list)
    for table_id, day, began, stopped in Recording.objects.filter(
        table__site_id__in=by_id, gaming_date__range=(start, end)
    ).values_list("table_id", "gaming_date", "started_at", "stopped_at"):
        recordings[(table_id, day)].append((began, stopped))
    found = []
    for (table, day), times in sorted(counts.items(), key=lambda item: (item[0][1], item[0][0].number)):
        if "opener" not in times or "closer" not in times or not required(table.site_id, day):
            continue
        if (
            table.pk in temporary
            and special_events.exemption(events.get(table.site_id, []), day, by_id[table.site_id]).exempt
        ):
            continue
        missing = coverage.gaps(times["opener"], times["closer"], recordings[(table.pk, day)])
        site = by_id[table.site_id]
        finding = rules.recording_gaps(site.pk, table.pk, table.number, day, missing,
                                       citation=rules.RECORDING_COVERS_PLAY.at(site), time_zone=site.time_zone)  # fmt: skip
        if finding:
            found.append(finding)
    return found


def _findings(sites, start=START, end=END):
    return list(providers.recordings_not_covering_play(sites, start, end, ThresholdBook(end)))


def _status(site, since, required=True):
    SurveillanceStatus.objects.create(site=site, required=required, since=since, reason="by hand",
                                      recorded_at=datetime(2026, 1, 1, tzinfo=UTC))  # fmt: skip


def _play(day, table, employee, recordings, closer=PLAY_MINUTES):
    counts = [("opener", 0)] + ([("closer", closer)] if closer is not None else [])
    TableInventory.objects.bulk_create(
        TableInventory(gaming_day=day, table=table, kind=kind, counted_at=_moment(day.gaming_date, minutes),
                       counted_by=employee, total_cents=100_000)
        for kind, minutes in counts
    )  # fmt: skip
    Recording.objects.bulk_create(
        Recording(table=table, gaming_date=day.gaming_date, started_at=_moment(day.gaming_date, a),
                  stopped_at=_moment(day.gaming_date, b), release_on=day.gaming_date + timedelta(days=31),
                  operated_by=employee, recorded_at=_moment(day.gaming_date, b))
        for a, b in recordings
    )  # fmt: skip


def test_the_database_finds_the_same_gaps_as_the_python_pass_did(site, other_site, cast):
    manager = cast[Role.SHIFT_MANAGER]
    _status(site, date(2026, 1, 1))
    # The other site required surveillance from the 8th only, after a status saying it did not.
    _status(other_site, date(2026, 1, 1), required=False)
    _status(other_site, date(2026, 11, 8))
    other_site.time_zone = "America/Denver"
    other_site.save()
    patterns = list(PATTERNS.values())
    tables = {s.pk: [TableFactory(site=s, number=n + 1) for n in range(len(patterns))] for s in (site, other_site)}
    for s, gaming_date in itertools.product((site, other_site), (date(2026, 11, 5), date(2026, 11, 10))):
        day = make_day(s, gaming_date, manager)
        for table, recordings in zip(tables[s.pk], patterns, strict=True):
            _play(day, table, manager, recordings)
    # Each other bounding of play, on its own tables and day.
    odd_day = make_day(site, date(2026, 11, 12), manager)
    for number, minutes in enumerate(CLOSERS.values(), start=100):
        for offset, recordings in enumerate((PATTERNS["none"], PATTERNS["exact"], PATTERNS["a minute apart"])):
            _play(odd_day, TableFactory(site=site, number=number * 10 + offset), manager, recordings, closer=minutes)
    expected = _python_pass([site, other_site], START, END)
    assert len(expected) > 20
    assert {f.site_id for f in expected} == {site.pk, other_site.pk}
    assert _findings([site, other_site]) == expected


@pytest.mark.parametrize("name", PATTERNS)
def test_each_pattern_of_recordings_is_judged_as_the_python_pass_did(name, site, table, cast):
    _status(site, date(2026, 1, 1))
    day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    _play(day, table, cast[Role.SHIFT_MANAGER], PATTERNS[name])
    assert _findings([site]) == _python_pass([site], START, END)


@pytest.mark.parametrize(
    ("name", "gaps"),
    [
        ("touching", []),
        ("a microsecond of overlap", []),
        ("same start", []),
        ("a long one bridges a short one's gap", []),
        ("a microsecond apart", [(300, timedelta(minutes=300) + US)]),
        ("entered out of order", [(200, 300)]),
        ("ends at the opener", [(0, 600)]),
        ("starts at the closer", [(599, 600)]),
        ("three with two gaps", [(100, 110), (200, 210)]),
    ],
)
def test_the_gaps_of_a_table_day_are_those_no_recording_covers(name, gaps, site, table, cast):
    _status(site, date(2026, 1, 1))
    day = make_day(site, date(2026, 11, 10), cast[Role.SHIFT_MANAGER])
    _play(day, table, cast[Role.SHIFT_MANAGER], PATTERNS[name])
    found = _findings([site])
    expected = [[_moment(day.gaming_date, a).isoformat(), _moment(day.gaming_date, b).isoformat()] for a, b in gaps]
    assert [f.figures["gaps"] for f in found] == ([expected] if gaps else [])


def test_only_the_table_days_not_covered_come_back_from_the_database(site, other_site, cast):
    _status(site, date(2026, 1, 1))
    manager = cast[Role.SHIFT_MANAGER]
    for s in (site, other_site):  # the other site never required surveillance: nothing of it is read
        day = make_day(s, date(2026, 11, 10), manager)
        for number, name in enumerate(("exact", "touching", "a minute apart", "none"), start=1):
            _play(day, TableFactory(site=s, number=number), manager, PATTERNS[name])
    days = queries.uncovered_table_days([site.pk], START, END)
    assert sorted((play["number"], len(play["recordings"])) for play in days.values()) == [(3, 2), (4, 0)]


def test_a_special_event_table_is_judged_only_past_its_exemption(site, cast):
    _status(site, date(2026, 1, 1))
    manager, dealer = cast[Role.SHIFT_MANAGER], cast[Role.DEALER]
    temporary = TableFactory(site=site, number=9, location=Table.Location.SPECIAL_EVENT)
    # The site's special event: November 1-14 (14 consecutive days, exempt); the table is still
    # dealt on the 15th and 16th, days no event covers, so those need their recordings.
    from surveillance.services import record_special_event

    record_special_event(
        acting_user=cast[Role.GAMING_MANAGER].user,
        site=site,
        name="Fair",
        first_day=date(2026, 11, 1),
        last_day=date(2026, 11, 14),
    )
    for offset in range(16):  # days 1-14 of the event are exempt, 15 and 16 are not
        day = make_day(site, date(2026, 11, 1) + timedelta(days=offset), manager)
        started = _moment(day.gaming_date, 0)
        DealerShift.objects.create(table=temporary, dealer=dealer, gaming_day=day, started_at=started,
                                   ended_at=started + timedelta(hours=4), started_by=dealer)  # fmt: skip
        _play(day, temporary, manager, PATTERNS["starts a minute late"])
    found = _findings([site])
    assert [f.period_key for f in found] == ["2026-11-15", "2026-11-16"]
    assert found == _python_pass([site], START, END)
