"""Browser form fields every app's forms use: amounts in dollars, dates within the books'
range, the Bootstrap classes on every widget, and refusals that name the field and its rule
(`NamesTheRule`)."""

import functools
from collections.abc import Callable

from django import forms
from django.core import validators as django_validators
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, transaction
from django.forms import fields as django_fields
from django.forms import models as django_models
from django.forms.utils import pretty_name
from django.utils.functional import Promise

from . import limits
from .database_refusals import database_refusal, unique_named
from .money import cents_to_decimal, decimal_to_cents, format_money
from .rules import HOUSE_CONTROL, stock_message_named


class CentsField(forms.CharField):
    """Dollars in the browser (`5` or `5.00`), integer cents in the model."""

    def prepare_value(self, value):
        if isinstance(value, int):
            return f"{cents_to_decimal(value):.2f}"
        return value

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            cents = decimal_to_cents(value)
        except ValueError as exc:
            raise forms.ValidationError(
                f"{limits.CITED_HOUSE_CONTROL}: enter an amount in dollars and cents ({exc})."
            ) from exc
        if abs(cents) > limits.MAX_AMOUNT_CENTS:
            raise forms.ValidationError(
                f"An amount is at most {format_money(limits.MAX_AMOUNT_CENTS)} ({limits.HOUSE_CONTROL})."
            )
        return cents


class BookDateField(forms.DateField):
    """A date within the books' range (limits.FIRST_DATE..LAST_DATE; a house control). A date
    that is no day of the calendar is refused naming the field, as the API says it."""

    name = "the date"  # the form's name for the field, once it is bound (`get_bound_field`)

    def get_bound_field(self, form, field_name):
        self.name = field_name  # each form has its own copy of its fields
        return super().get_bound_field(form, field_name)

    def clean(self, value):
        if limits.impossible_date(value):  # 2026-02-30: said as the API's parameters say it
            raise forms.ValidationError(limits.no_such_date_message(value, self.name))
        cleaned = super().clean(value)
        if cleaned is not None and not limits.date_in_range(cleaned):
            raise forms.ValidationError(limits.date_message())
        return cleaned


def page_status(*forms_shown, refusal: str = "") -> int:
    """The status of a page shown with its forms and formsets (None for one not shown): 400 when it
    refuses what was posted (a bound form with errors, a service's ValidationError put on it, a
    bound formset with an error of its own or of any of its forms, or a refusal said apart from any
    form, `refusal`), 200 otherwise. The page shows the message inline, naming the field and its
    rule, as the API's 400 does; nothing was written. Every page decides so: the product's own, Django's
    form views (`answered_as_refused`) and the admin's (`cardroom.admin.RefusalStatusMixin`)."""
    refused = bool(refusal) or any(_refuses(shown) for shown in forms_shown)
    return 400 if refused else 200


def _refuses(shown: forms.BaseForm | forms.BaseFormSet | None) -> bool:
    if shown is None or not shown.is_bound:
        return False
    return bool(shown.errors) if isinstance(shown, forms.BaseForm) else shown.total_error_count() > 0


def run_service(save: Callable):
    """Run a page's service: `(what it returned, None)`, or `(None, its refusal)` said as every page
    says it: a ValidationError with Django's bare uniqueness words named (`unique_named`: a record
    already kept, as the form's own check and the API name it), and the database's refusal (two
    copies sent together meeting at a constraint) in the words of the rule it keeps
    (`database_refusal`). Nothing is written when it refuses."""
    try:
        with transaction.atomic():  # a refusal by the database leaves the page's own reads working
            return save(), None
    except (IntegrityError, DataError) as refused:
        return None, database_refusal(refused)
    except ValidationError as refused:
        return None, unique_named(refused)


def call_service(form, save: Callable, *others):
    """Run a service with a valid form; put its refusal (`run_service`) on the form's fields.
    `others`: the page's other forms posted with it; a message keyed by a field one of them shows
    goes on that field there."""
    done, refused = run_service(save)
    if refused is None:
        return done
    if not hasattr(refused, "error_dict"):
        form.add_error(None, refused)
        return None
    for name, errors in refused.message_dict.items():
        shown = next((f for f in (form, *others) if name in f.fields), None)
        # A rule about a value no form shows goes in the form's own errors, as the sentence it
        # is: a refusal names its rule, never an internal field name.
        (shown or form).add_error(name if shown else None, errors)
    return None


def answered_as_refused(request, response):
    """`response`, a page of one of Django's own form views (the sign-in, the admin's password
    pages), with the status every page of the product gives (`page_status`): 400 when it shows its
    form again refusing what was posted, nothing written. Django answers 200."""
    form = (getattr(response, "context_data", None) or {}).get("form")
    if request.method == "POST" and response.status_code == 200 and isinstance(form, forms.BaseForm):
        response.status_code = page_status(form)
    return response


def refusing_with_400(view):
    """`view`, one of Django's own form views, answering as `answered_as_refused`."""

    @functools.wraps(view)
    def answered(request, *args, **kwargs):
        return answered_as_refused(request, view(request, *args, **kwargs))

    return answered


def say_when_blank(form: forms.Form, messages: dict[str, str]) -> None:
    """A required field left blank is refused in the words of its rule (`messages`, by field, each
    citing the rule at the form's site), not Django's bare "This field is required."."""
    for name, message in messages.items():
        form.fields[name].error_messages["required"] = message


def offer_only(field, allowed, *, recorded=None, help_text: str | None = None) -> None:
    """A select offers only the values `allowed` at the record's site (a choice its rule always
    refuses is not offered), beside `recorded`, the record's own value where it was kept with
    another (so an existing record still shows it); None where there is no record. The widget is
    narrowed, not the field: a value posted anyway reaches the rule, which refuses it citing itself.
    `help_text`: the rule, cited, said under the field. A field with no choices (a yes/no box) is
    told, not narrowed."""
    if help_text is not None:
        field.help_text = help_text
    if not hasattr(field, "choices"):
        return
    kept = set(allowed) if recorded is None else {*allowed, recorded}
    field.widget.choices = [(choice, label) for choice, label in field.widget.choices if choice in kept]


class NamesTheRule:
    """A refused field names the field and its rule, never Django's bare words: a required field
    left blank is the house's control (core.rules.HOUSE_CONTROL) unless the form gives the rule of
    its record (`say_when_blank`, at the form's site), and any other of Django's stock messages
    ("Select a valid choice. X is not one of the available choices.", "Enter a whole number.",
    "Ensure this value is greater than or equal to 1.") names the field's label and House control
    before Django's own words, as the API's do (core.rules.stock_message_named). A message the
    form or its service gave (one citing the field's own rule) stays as it is. The errors are
    reworded once the form is cleaned, so a field a form adds after its __init__ (a chip grid, a
    station's badge) is covered too. A record already kept that the form's own uniqueness check
    finds (Django's "... with this ... already exists.", put on the form through `add_error`) is
    refused in the API's words (core.database_refusals.unique_named), as a service's is on a page
    (`call_service`)."""

    def add_error(self, field, error):
        super().add_error(field, unique_named(error) if isinstance(error, forms.ValidationError) else error)

    def full_clean(self):
        super().full_clean()
        for name, errors in (self._errors or {}).items():
            if name in self.fields:
                label = str(self.fields[name].label or pretty_name(name))
                errors.data = [_named_when_stock(error, label) for error in errors.data]


def _named_when_stock(error, label: str):
    """`error` in the words of its rule when it is one of Django's stock messages (the very text
    object Django's field or validator raised), else `error` as it is."""
    if not isinstance(error, forms.ValidationError) or id(error.message) not in _django_stock_ids():
        return error
    if error.code == "required":
        said = f"{HOUSE_CONTROL}: {label} is required; the record is not kept without it."
    elif str(error.message) and error.params:  # reworded before the values go in: a value keeps its case
        said = stock_message_named(label.replace("%", "%%"), str(error.message)) % error.params
    else:  # no values, or a plural message that has words only once its values are in
        said = stock_message_named(label, next(iter(error)))
    return forms.ValidationError(said, code=error.code)


@functools.cache
def _django_stock_ids() -> frozenset[int]:
    """The ids of Django's stock messages: its form fields' `default_error_messages` and its
    validators' messages (class attributes, alive for the process; a field's `error_messages`
    holds the same objects unless a form replaced them)."""
    messages = []
    for module in (django_fields, django_models, django_validators):
        for klass in vars(module).values():
            own = vars(klass) if isinstance(klass, type) else {}
            for found in (own.get("default_error_messages"), own.get("messages")):
                messages += found.values() if isinstance(found, dict) else []
            messages += [own["message"]] if isinstance(own.get("message"), str | Promise) else []
    return frozenset(id(message) for message in messages)


class BootstrapMixin(NamesTheRule):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.DateField) and type(field.widget) is forms.DateInput:
                field.widget = forms.DateInput(attrs=field.widget.attrs, format="%Y-%m-%d")
                field.widget.input_type = "date"  # the browser's date picker, ISO in the form
            widget = field.widget
            css = (
                "form-check-input"
                if isinstance(widget, forms.CheckboxInput)
                else ("form-select" if isinstance(widget, forms.Select) else "form-control")
            )
            widget.attrs.setdefault("class", css)


class LocalMomentField(forms.DateTimeField):
    """A moment typed in the site's local time (the middleware activates the site's zone) in the
    browser's date-and-time picker; the service checks it (core.moments)."""

    def __init__(self, label: str, **kwargs):
        kwargs.setdefault("help_text", "In the site's local time.")
        super().__init__(
            label=label,
            widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
            **kwargs,
        )


class PaperMomentField(LocalMomentField):
    """When a record happened, from the paper: blank is now; a time is the site's local time and
    the service checks it (core.moments: not in the future, not before what it follows). Pages show
    it behind a "From paper" toggle (templates/cardroom/_from_paper.html), as the pit terminal does."""

    from_paper = True  # read by templates/cardroom/_form.html

    def __init__(self, label: str, **kwargs):
        kwargs.setdefault("help_text", "From the paper form, in the site's local time; leave blank for now.")
        super().__init__(label, required=False, **kwargs)
