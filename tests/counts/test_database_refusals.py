"""A refusal by the database (two copies of one request meeting at a constraint) is said in the
words of the rule the constraint keeps, keyed by its field, in the API (a 400), on a form and on
any other page (sent back with the message): never a 500 nor the database's own text.

The IntegrityErrors here are the database's real ones (on SQLite and PostgreSQL alike: each
names a constraint its own way), raised by writing the second copy past the service's check."""

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.db import IntegrityError, transaction
from django.test import override_settings
from django.urls import include, path
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from core.database_refusals import database_refusal
from core.forms import call_service
from counts.models import CountEntry, CountSession, DropBox, EntryKind
from tests.counts.conftest import COUNT_TIME, GAMING_DATE

SESSION_OPEN = "House control: a count session for this site and gaming date is already open."
RESOLVED = "House control: this box's difference is already resolved."


def refused(write) -> IntegrityError:
    with pytest.raises(IntegrityError) as raised, transaction.atomic():
        write()
    return raised.value


def recount(session, drop, by):
    """A recount's entry written past the service (which refuses a second one first)."""
    return CountEntry.objects.create(
        session=session, drop=drop, kind=EntryKind.RECOUNT, entered_by=by, entered_at=COUNT_TIME, total_cents=0
    )


def second_session(session):
    return refused(
        lambda: CountSession.objects.create(
            site=session.site,
            gaming_date=session.gaming_date,
            first_member=session.first_member,
            second_member=session.second_member,
            opened_by=session.opened_by,
            opened_at=COUNT_TIME,
        )
    )


def test_a_unique_constraint_says_its_own_sentence_after_its_rule(session):
    refusal = database_refusal(second_session(session))
    assert refusal.messages == [SESSION_OPEN]
    assert not hasattr(refusal, "error_dict")  # two fields: the form's own errors, not one field's


def test_a_partial_unique_index_is_named_too(session, removed, counters):
    """SQLite names a partial index's columns, PostgreSQL its name: both find the same sentence."""
    first = recount(session, removed[0].drop, counters[0])
    again = refused(lambda: recount(session, first.drop, counters[1]))
    refusal = database_refusal(again)
    assert refusal.message_dict == {"drop": [RESOLVED]}


def test_a_check_constraint_and_an_append_only_row_are_said_as_rules(session, boxes):
    counted_alone = refused(
        lambda: CountSession.objects.create(
            site=session.site,
            gaming_date=session.gaming_date.replace(day=1),
            first_member=session.first_member,
            second_member=session.first_member,
            opened_by=session.opened_by,
            opened_at=COUNT_TIME,
        )
    )
    assert database_refusal(counted_alone).messages == [
        "House control: this count session breaks the rule count_two_persons."
    ]
    changed = refused(lambda: CountSession.objects.filter(pk=session.pk).update(opened_at=COUNT_TIME.replace(hour=4)))
    assert database_refusal(changed).messages == [
        "House control: this count session is signed and append-only, never changed or deleted; "
        "record a correction that points back to it."
    ]
    assert DropBox.objects.filter(pk=boxes[0].pk).exists()


class Raises(APIView):
    error: IntegrityError

    def post(self, request):
        raise self.error


def test_the_api_answers_a_400_naming_the_field_and_the_rule(session, removed, counters, manager):
    Raises.error = second_session(session)
    request = APIRequestFactory().post("/api/x/", {}, format="json")
    request.user = manager.user
    response = Raises.as_view()(request)
    assert response.status_code == 400
    assert response.data == {"non_field_errors": [SESSION_OPEN]}


class DropForm(forms.Form):
    drop = forms.CharField(required=False)


def test_a_form_carries_the_refusal_on_its_field_and_the_page_can_still_read(session, removed, counters):
    first = recount(session, removed[0].drop, counters[0])

    def again():
        recount(session, first.drop, counters[1])

    form = DropForm(data={})
    assert form.is_valid()
    assert call_service(form, again) is None
    assert form.errors == {"drop": [RESOLVED]}
    assert CountEntry.objects.filter(drop=first.drop, kind=EntryKind.RECOUNT).count() == 1  # still readable


@transaction.atomic  # as a service writes
def _boom(request):
    first = CountSession.objects.get()
    CountSession.objects.create(
        site=first.site,
        gaming_date=GAMING_DATE,
        first_member=first.first_member,
        second_member=first.second_member,
        opened_by=first.opened_by,
        opened_at=COUNT_TIME,
    )


urlpatterns = [path("boom/", _boom), path("", include("config.urls"))]  # the pages' own links too


@override_settings(ROOT_URLCONF=__name__)
def test_any_other_page_sends_the_browser_back_with_the_refusal(client, session, manager):
    client.force_login(manager.user)
    response = client.post("/boom/", HTTP_REFERER="http://testserver/counts/")
    assert response.status_code == 302
    assert response["Location"] == "http://testserver/counts/"
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert said == [SESSION_OPEN]
    elsewhere = client.post("/boom/", HTTP_REFERER="https://elsewhere.example/")
    assert elsewhere["Location"] == "/boom/"  # never sent off the site
    read = client.get("/boom/")  # a page that wrote as it was read: said there, not sent back to itself
    assert read.status_code == 409
    assert SESSION_OPEN in read.content.decode()
    assert CountSession.objects.count() == 1
