"""The database's refusals said in the words of the rule each constraint keeps.

A service checks its rules before it writes, but two copies of one request sent together (two
terminals, a double click, a retry) can both pass the check and meet at a unique constraint or a
trigger. What the database then raises (`IntegrityError`) names a constraint, a table and
columns; here it becomes the `ValidationError` a service would have raised: the constraint's own
`violation_error_message` (or, for a constraint without one, the record and the fields it keeps
unique), keyed by the field where the constraint has one field, after the rule that keeps it
("House control: " where its words name none): the very words a service's or a form's own check
says for the same record (`unique_named`), whichever finds it. The API (`core.api.exception_handler`) answers it
as a 400, a form (`core.forms.call_service`) puts it on the form, and any other page
(`DatabaseRefusalMiddleware`) sends the browser back to the page it came from with the message,
so no such refusal is ever a 500.
"""

import re
from dataclasses import dataclass
from functools import cache

from django.apps import apps
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from . import form_tokens
from .rules import HOUSE_CONTROL, lower_first

RULE_WORDS = re.compile(r"\b(ND|WAC|NY|RCW|9 NYCRR)\b|house control|House control")
APPEND_ONLY = re.compile(r"append-only: (UPDATE|DELETE) of (\w+) is refused")
SQLITE_UNIQUE = re.compile(r"UNIQUE constraint failed: (.+)")
SQLITE_CHECK = re.compile(r"CHECK constraint failed: (\w+)")
NOT_NULL = re.compile(r"NOT NULL constraint failed: (\w+)\.(\w+)|null value in column \"(\w+)\" of relation \"(\w+)\"")


@dataclass(frozen=True)
class Keeper:
    """What one constraint keeps: its model, the fields it names, and its sentence."""

    model: type[models.Model]
    fields: tuple[str, ...]
    message: str


def _cited(sentence: str) -> str:
    """`sentence` after the rule it rests on, as every refusal is said: as it is where its words
    name a rule, else after House control ("House control: this gaming day is already open at the
    site.")."""
    return sentence if RULE_WORDS.search(sentence) else f"{HOUSE_CONTROL}: {lower_first(sentence)}"


def _sentence(model, constraint, fields) -> str:
    custom = getattr(constraint, "violation_error_message", None)
    if custom and custom != constraint.default_violation_error_message:
        return _cited(str(custom))
    if isinstance(constraint, models.CheckConstraint) or not fields:
        return _cited(f"This {model._meta.verbose_name} breaks the rule {constraint.name}.")
    return already_recorded(model, fields)


# "an" before a vowel's sound: a, e, i, o, and a "u" not said "you" ("an unverified", "an umbrella");
# a "u", one consonant and a vowel is said "you" ("a user", "a unit"), but for the prefix "un".
_AN = re.compile(r"[aeio]|u(?![bcdfghjklmnpqrstvwxyz][aeiouy])|un(?!i)")


def already_recorded(model, fields) -> str:
    """What a unique constraint, a unique field or a unique_together keeps, naming the record and
    its fields after House control, on every path that finds it (the database's constraint, a
    form's, the admin's or a service's check): "House control: a chip denomination with this
    organization and value is already recorded."."""
    names = [str(model._meta.get_field(name).verbose_name) for name in fields]
    labels = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]
    noun = str(model._meta.verbose_name)
    article = "an" if _AN.match(noun.lower()) else "a"
    return f"{HOUSE_CONTROL}: {article} {noun} with this {labels} is already recorded."


UNIQUE_CODES = frozenset({"unique", "unique_together"})  # Django's `Model.unique_error_message`


def unique_named(error: ValidationError) -> ValidationError:
    """`error` with Django's bare uniqueness words ("Employee relation with this Employee, Relative
    and Kind already exists.", "A user with that username already exists.": the codes of
    `Model.unique_error_message`, raised by `validate_unique`, `validate_constraints` and a
    UniqueConstraint on fields with no message of its own) naming the record, its fields and House
    control first, one wording for the pages, the admin and the API. Any other error, one a
    constraint's own message or a service gave citing its rule, stays as it is."""
    if hasattr(error, "error_dict"):
        return ValidationError({name: [unique_named(e) for e in errors] for name, errors in error.error_dict.items()})
    if not hasattr(error, "message"):
        return ValidationError([unique_named(e) for e in error.error_list])
    params = error.params if isinstance(error.params, dict) else {}
    if error.code not in UNIQUE_CODES or "unique_check" not in params:
        return error
    return ValidationError(already_recorded(params["model_class"], params["unique_check"]), code=error.code)


def _fields(constraint) -> tuple[str, ...]:
    """The fields a constraint names; for one on expressions, the fields inside its functions
    (`Lower("name")`: name), what a person entered, not the plain ones that scope it."""
    if named := tuple(getattr(constraint, "fields", ()) or ()):
        return named
    wrapped = (e for e in getattr(constraint, "expressions", ()) if not isinstance(e, models.F))
    return tuple(dict.fromkeys(ref.name for e in wrapped for ref in e.flatten() if isinstance(ref, models.F)))


def _columns(model, fields) -> frozenset[str]:
    return frozenset(model._meta.get_field(name).column for name in fields)


# A unique index no model declares: a login's name in any case (cardroom migration 0028, in SQL on
# Django's auth table, which the project does not declare constraints on).
LOGIN_NAME_ANY_CASE = "auth_user_username_any_case"
LOGIN_NAME_UNIQUE = f"{HOUSE_CONTROL}: a login name is unique whatever its case"  # the services' words too


@cache
def _keepers() -> tuple[dict[str, Keeper], dict[tuple[str, frozenset[str]], Keeper]]:
    """Every model's constraints by name, and its unique ones by (table, columns) as SQLite names them."""
    by_name: dict[str, Keeper] = {}
    by_columns: dict[tuple[str, frozenset[str]], Keeper] = {}
    for model in apps.get_models():
        opts = model._meta
        for constraint in opts.constraints:
            fields = _fields(constraint)
            keeper = Keeper(model, fields, _sentence(model, constraint, fields))
            by_name[constraint.name] = keeper
            if getattr(constraint, "fields", ()):  # SQLite names the columns of these, an expression's index by name
                by_columns.setdefault((opts.db_table, _columns(model, fields)), keeper)
        for field in opts.local_fields:
            if field.unique and not field.primary_key:
                keeper = Keeper(model, (field.name,), already_recorded(model, (field.name,)))
                by_columns.setdefault((opts.db_table, frozenset([field.column])), keeper)
        for together in opts.unique_together:
            keeper = Keeper(model, tuple(together), already_recorded(model, together))
            by_columns.setdefault((opts.db_table, _columns(model, together)), keeper)
    by_name[LOGIN_NAME_ANY_CASE] = Keeper(get_user_model(), ("username",), f"{LOGIN_NAME_UNIQUE}.")
    return by_name, by_columns


def _field_of(model, column: str) -> str | None:
    if model is None:
        return None
    for field in model._meta.local_fields:
        if field.column == column:
            return field.name
    return None


def _model_of(table: str):
    return next((model for model in apps.get_models() if model._meta.db_table == table), None)


def _keeper(exc: IntegrityError) -> Keeper | None:
    by_name, by_columns = _keepers()
    diag = getattr(exc.__cause__, "diag", None)  # PostgreSQL (psycopg) names the constraint
    if diag is not None and diag.constraint_name in by_name:
        return by_name[diag.constraint_name]
    text = str(exc)
    if found := SQLITE_CHECK.search(text):
        return by_name.get(found[1])
    if found := SQLITE_UNIQUE.search(text):
        pairs = [part.strip().split(".", 1) for part in found[1].split(",")]
        if all(len(pair) == 2 for pair in pairs):
            return by_columns.get((pairs[0][0], frozenset(column for _, column in pairs)))
        if index := re.search(r"index '(\w+)'", found[1]):
            return by_name.get(index[1])
    return None


def database_refusal(exc: IntegrityError | DataError) -> ValidationError:
    """`exc` as the ValidationError a service raises: keyed by the one field it names, if one."""
    if isinstance(exc, DataError):
        return ValidationError(f"{HOUSE_CONTROL}: a value is out of the range its field keeps.")
    text = str(exc)
    if found := APPEND_ONLY.search(text):
        model = _model_of(found[2])
        noun = model._meta.verbose_name if model else "record"
        return ValidationError(
            f"{HOUSE_CONTROL}: this {noun} is signed and append-only, never changed or deleted; "
            "record a correction that points back to it."
        )
    if found := NOT_NULL.search(text):
        table, column = (found[1], found[2]) if found[1] else (found[4], found[3])
        name = _field_of(_model_of(table), column) or column
        return ValidationError({name: f"{HOUSE_CONTROL}: {name.replace('_', ' ')} is required."})
    keeper = _keeper(exc)
    if keeper is None:
        # A trigger's own sentence (ours, in the migration that made it), or a constraint no model declares.
        detail = text.splitlines()[0].strip() if text.strip() else "a constraint"
        return ValidationError(f"{HOUSE_CONTROL}: refused by the database ({detail}); nothing was written.")
    if len(keeper.fields) == 1:
        return ValidationError({keeper.fields[0]: keeper.message})
    return ValidationError(keeper.message)


class DatabaseRefusalMiddleware:
    """A page's refusal by the database, raised past its view, sent back to the page it came from
    with the refusal's sentence (the API answers its own: `core.api.exception_handler`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (IntegrityError, DataError)) or request.path.startswith("/api/"):
            return None
        said = " ".join(database_refusal(exception).messages)
        back = request.META.get("HTTP_REFERER", "")
        if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
            back = request.path if request.method == "POST" else ""
        if not back or back.endswith(request.get_full_path()) and request.method != "POST":
            # No page to go back to (a page that wrote as it was read): said here, never a loop.
            return render(request, "database_refusal.html", {"refusal": said}, status=409)
        messages.error(request, said)
        return form_tokens.refused(redirect(back))
