"""A video review program's length and footage: North Dakota's are its pack's (ND 99-01.3-08-04(9),
six weeks, an hour a week), refused when asked otherwise; a Washington or New York gaming manager
sets the house's own program's weeks and minutes a week when opening it (house control, bounded),
and the program keeps what it asked: its tasks, its required footage and its page read it."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError

from cardroom.access import SESSION_KEY
from cardroom.models import Role
from surveillance import queries, services
from surveillance.models import ReviewProgram, ReviewTask
from tests.conformance.words import ND_WORDS, law_words_in
from tests.factories import make_person

from .test_packs import as_pack
from .test_review_program import entry

START = date(2026, 4, 6)  # a Monday
API = "/api/v1/surveillance/review-programs/"


@pytest.fixture
def reviewer(org, site):
    return make_person(org, Role.SHIFT_MANAGER, site)


def at_site(client, employee, site):
    client.force_login(employee.user)
    session = client.session
    session[SESSION_KEY] = site.pk
    session.save()
    return client


def test_a_washington_house_program_of_four_weeks_and_90_minutes_asks_90_minutes_for_four_weeks(
    site, manager, reviewer
):
    as_pack(site, "WA-HB")
    program = services.open_review_program(manager.user, site, START, "Our own review", weeks=4, footage_minutes=90)
    assert (program.weeks, program.footage_minutes, program.end_date) == (4, 90, date(2026, 5, 3))
    tasks = ReviewTask.objects.filter(program=program)
    assert sorted(set(tasks.values_list("week", flat=True))) == [1, 2, 3, 4]
    assert max(tasks.values_list("week_end", flat=True)) == date(2026, 5, 3)
    task = program.tasks.get(week=1)
    entry(manager, task, reviewer, minutes=60)
    assert not queries.task_done(task)  # the house's hour is not its 90 minutes
    entry(manager, task, reviewer, start=(22, 0), minutes=30)
    assert queries.task_done(task)
    assert queries.required_footage(program) == timedelta(minutes=90)


def test_north_dakota_refuses_another_length_or_footage_citing_its_section_and_writes_nothing(site, manager, table):
    with pytest.raises(ValidationError) as weeks:
        services.open_review_program(manager.user, site, START, "Q1 hold 7%", weeks=4)
    assert weeks.value.message_dict["weeks"][0].startswith("ND 99-01.3-08-04(9): a review program here runs 6 ")
    with pytest.raises(ValidationError) as footage:
        services.open_review_program(manager.user, site, START, "Q1 hold 7%", footage_minutes=90)
    assert footage.value.message_dict["footage_minutes"][0].startswith("ND 99-01.3-08-04(9): ")
    assert not ReviewProgram.objects.exists()
    program = services.open_review_program(manager.user, site, START, "Q1 hold 7%", weeks=6, footage_minutes=60)
    assert (program.weeks, program.footage_minutes) == (6, 60)  # the pack's, kept with the program


@pytest.mark.parametrize("code", ["WA-HB", "WA-BJ", "NY"])
def test_a_house_program_opened_without_numbers_keeps_the_houses_defaults(site, manager, code):
    as_pack(site, code)
    program = services.open_review_program(manager.user, site, START, "Our own review")
    assert (program.weeks, program.footage_minutes) == (6, 60)
    assert program.tasks.filter(week=6).exists() and not program.tasks.filter(week=7).exists()


@pytest.mark.parametrize("code", ["WA-HB", "NY"])
def test_the_refusals_of_opening_a_house_program_cite_house_control(site, manager, code):
    site.jurisdiction = code
    site.save()
    with pytest.raises(ValidationError) as no_table:
        services.open_review_program(manager.user, site, START, "Our own review")
    assert no_table.value.message_dict["site"] == ["House control: the site has no active table to review."]
    as_pack(site, code)
    services.open_review_program(manager.user, site, START, "Our own review", weeks=2)
    with pytest.raises(ValidationError) as running:
        services.open_review_program(manager.user, site, START + timedelta(days=3), "Again")
    assert running.value.message_dict["start_date"] == [
        "House control: a video review program is already running at this site on that date."
    ]
    with pytest.raises(ValidationError) as overlapping:
        services.open_review_program(manager.user, site, START - timedelta(days=3), "Back-dated", weeks=2)
    assert overlapping.value.message_dict["start_date"][0].startswith(
        f"House control: a video review program starts at this site on {START:%Y-%m-%d}, within the weeks of this one"
    )


def test_an_nd_refusal_of_a_second_program_cites_its_section(site, manager, table):
    services.open_review_program(manager.user, site, START, "Q1 hold 7%")
    with pytest.raises(ValidationError) as running:
        services.open_review_program(manager.user, site, START + timedelta(weeks=1), "Again")
    assert running.value.message_dict["start_date"][0].startswith(
        "ND 99-01.3-08-04(9): a video review program is already running"
    )


def test_the_api_opens_a_washington_house_program_of_four_weeks_and_90_minutes(client_for, site, manager):
    as_pack(site, "WA-HB")
    body = {"site": site.pk, "start_date": "2026-04-06", "reason": "Our own", "weeks": 4, "footage_minutes": 90}
    response = client_for(manager).post(API, body, format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["weeks"], response.json()["footage_minutes"]) == (4, 90)
    program = ReviewProgram.objects.get(pk=response.json()["id"])
    assert program.tasks.order_by("week").last().week == 4


@pytest.mark.parametrize(
    ("field", "value", "bound"),
    [("weeks", 0, "1 to 26 whole weeks"), ("weeks", 27, "1 to 26 whole weeks"),
     ("footage_minutes", 0, "1 minute to 40 hours"), ("footage_minutes", 2401, "1 minute to 40 hours")],
)  # fmt: skip
def test_the_api_refuses_a_house_program_out_of_bounds_naming_the_field_and_writes_nothing(
    client_for, site, manager, field, value, bound
):
    as_pack(site, "WA-HB")
    body = {"site": site.pk, "start_date": "2026-04-06", "reason": "Our own", field: value}
    response = client_for(manager).post(API, body, format="json")
    assert response.status_code == 400
    message = response.json()[field][0]
    assert message.startswith("House control: ") and bound in message
    assert not ReviewProgram.objects.exists() and not ReviewTask.objects.exists()


def test_the_api_refuses_a_four_week_program_in_north_dakota(client_for, site, manager, table):
    body = {"site": site.pk, "start_date": "2026-04-06", "reason": "Q1 hold 7%", "weeks": 4}
    response = client_for(manager).post(API, body, format="json")
    assert response.status_code == 400
    assert response.json()["weeks"][0].startswith("ND 99-01.3-08-04(9): ")
    assert not ReviewProgram.objects.exists()


def test_the_programs_page_offers_the_length_and_footage_only_where_the_pack_states_none(client, site, manager):
    page = at_site(client, manager, site).get("/surveillance/programs/").content.decode()
    assert 'name="weeks"' not in page and 'name="footage_minutes"' not in page
    as_pack(site, "WA-HB")
    page = client.get("/surveillance/programs/").content.decode()
    assert 'name="weeks"' in page and 'name="footage_minutes"' in page
    assert "House control: the house&#x27;s own program, its length set here: 1 to 26 weeks" in page
    assert not law_words_in(page, ND_WORDS)


def test_a_washington_gaming_manager_opens_a_house_program_on_the_page_and_it_reads_what_it_asked(
    client, site, manager
):
    as_pack(site, "WA-HB")
    at_site(client, manager, site)
    form = {"start_date": "2026-04-06", "reason": "Our own review"}
    refused = client.post("/surveillance/programs/", {**form, "weeks": "27", "footage_minutes": "90"})
    assert refused.status_code == 400 and "House control: the house&#x27;s review program runs 1 to 26" in (
        refused.content.decode()
    )
    assert not ReviewProgram.objects.exists()
    assert client.post("/surveillance/programs/", {**form, "weeks": "4", "footage_minutes": "90"}).status_code == 302
    program = ReviewProgram.objects.get()
    assert (program.weeks, program.footage_minutes) == (4, 90)
    page = client.get(f"/surveillance/programs/{program.pk}/").content.decode()
    assert (
        "House control: video reviewed for each active table, at least 90 minutes per week, for 4 continuous weeks"
        in (page)
    )
    assert "at least 90 minutes needed" in page
    assert not law_words_in(page, ND_WORDS)
