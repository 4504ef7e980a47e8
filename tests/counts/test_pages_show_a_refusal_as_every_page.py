"""The count pages show a service's refusal the one way every page does (core.forms.run_service,
call_service): the boxes page's forms carry it at their field (or in the form's own errors, for a
rule about a value no box shows), and the count pages' refusals include the database's, when two
copies meet at a constraint past the service's check, in the words of the rule it keeps, as a 400
with nothing written, not a page sent back."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.moments import gaming_date_of
from counts.models import CountSession, Drop, DropBox, DropRemoval
from counts.services import counting
from tests.page_support import page

from .conftest import GAMING_DATE

pytestmark = pytest.mark.django_db

BOXES = "/counts/boxes/"


def form_html(text: str, form_id: str) -> str:
    """The HTML of the form `form_id` on the page."""
    return text.split(f'id="{form_id}"', 1)[1].split("</form>", 1)[0]


def test_a_box_already_registered_is_refused_in_the_register_forms_own_errors(client, manager, boxes):
    client.force_login(manager.user)
    refused = client.post(BOXES, {"action": "register", "table": boxes[0].table_id, "label": "", "locks": 1})
    assert refused.status_code == 400
    said = "House control: a drop box with this number and label is already registered at this site."
    assert f'role="alert"><div>{said}</div>' in form_html(page(refused), "register-box")
    assert DropBox.objects.count() == len(boxes)


def test_a_removal_for_a_day_not_begun_is_refused_at_the_removal_forms_date(
    client, site, shift_manager, boxes, counters
):
    ahead = gaming_date_of(site, timezone.now()) + timedelta(days=5)
    client.force_login(shift_manager.user)
    refused = client.post(
        BOXES,
        {
            "action": "remove",
            "box": boxes[0].pk,
            "gaming_date": ahead.isoformat(),
            "storage_place": "safe",
            "key_holder": counters[0].pk,
            "sole_employee_on_duty": "on",
        },
    )
    assert refused.status_code == 400
    at_field = form_html(page(refused), "remove-box").split('id="error-gaming_date"><li>', 1)
    assert len(at_field) == 2 and at_field[1].startswith(
        f"ND 99-01.3-08-14(1): the gaming day {ahead} has not begun yet"
    )
    assert not Drop.objects.exists() and not DropRemoval.objects.exists()


def test_a_second_count_of_the_day_meeting_the_database_is_refused_in_its_rules_words(
    client, counters, session, monkeypatch
):
    """The service's own check passed (as on a second terminal before the first had written):
    the database keeps one count of a day, and the page says so, 400, instead of sending the
    browser back."""
    monkeypatch.setattr(counting, "_refuse_opened_twice", lambda site, gaming_date: None)
    client.force_login(counters[0].user)
    refused = client.post("/counts/", {"gaming_date": GAMING_DATE.isoformat(), "partner": counters[1].pk})
    assert refused.status_code == 400
    said = "House control: a count session for this site and gaming date is already open."
    assert f'<div id="error-__all__"><div>{said}</div>' in page(refused)
    assert CountSession.objects.count() == 1
