"""Query filters and pagination shared by every list endpoint.

- An id in a filter (`?site=`, `?table=`, `?employee=`...) is a whole number from 1 to
  `limits.MAX_ID`; it filters the rows the user may already see and never looks the id up on
  its own, so another organization's id answers exactly like an id that does not exist (an
  empty list), never "not one of the available choices" (no existence oracle).
- Other whole numbers are bounded (a printed number by `limits.MAX_FORM_NUMBER`), dates lie
  within `limits.FIRST_DATE`..`limits.LAST_DATE`.
- Pages: `?limit=` from 1 to `limits.MAX_PAGE_SIZE` (default `limits.DEFAULT_PAGE_SIZE`),
  `?offset=` from 0 to `limits.MAX_OFFSET`; anything else is a 400 naming the parameter.
"""

from django import forms
from django.db import models
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import pagination
from rest_framework.exceptions import ValidationError

from . import limits
from .forms import BookDateField


class IdFormField(forms.IntegerField):
    default_error_messages = {
        "invalid": "Give an id as a whole number.",
        "min_value": "An id is at least %(limit_value)s.",
        "max_value": "An id is at most %(limit_value)s.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", limits.MAX_ID)
        super().__init__(**kwargs)


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(filters.Filter):
    """`?name=<id>`: rows whose `field_name` is that id, among the rows the user may see."""

    field_class = IdFormField


class WholeNumberFormField(forms.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", limits.MAX_FORM_NUMBER)
        super().__init__(**kwargs)


@extend_schema_field(OpenApiTypes.INT)
class WholeNumberFilter(filters.Filter):
    field_class = WholeNumberFormField


class DateFilter(filters.DateFilter):
    field_class = BookDateField


class FilterSet(filters.FilterSet):
    """The base of every list's filters: ids, numbers and dates bounded as above."""

    FILTER_DEFAULTS = {
        **filters.FilterSet.FILTER_DEFAULTS,
        models.ForeignKey: {"filter_class": IdFilter},
        models.OneToOneField: {"filter_class": IdFilter},
        models.AutoField: {"filter_class": IdFilter},
        models.BigAutoField: {"filter_class": IdFilter},
        **{
            kind: {"filter_class": WholeNumberFilter}
            for kind in (
                models.SmallIntegerField,
                models.IntegerField,
                models.BigIntegerField,
                models.PositiveSmallIntegerField,
                models.PositiveIntegerField,
                models.PositiveBigIntegerField,
            )
        },
        models.DateField: {"filter_class": DateFilter},
    }


class FilterBackend(filters.DjangoFilterBackend):
    """`filterset_fields` build on our FilterSet too."""

    filterset_base = FilterSet


def site_filterset(model, site_path: str = "site", date_path: str | None = None, extra=()) -> type[FilterSet]:
    """A FilterSet with `?site=<id>` on `site_path`, `?gaming_date=` on `date_path` (when given)
    and the default filters on the `extra` model fields."""
    attrs = {
        "Meta": type("Meta", (), {"model": model, "fields": list(extra)}),
        "site": IdFilter(field_name=site_path),
    }
    if date_path:
        attrs["gaming_date"] = DateFilter(field_name=date_path)
    return type(f"{model.__name__}Filter", (FilterSet,), attrs)


class Pagination(pagination.LimitOffsetPagination):
    """Every list is paged: `?limit=` (1 to MAX_PAGE_SIZE, default DEFAULT_PAGE_SIZE) and
    `?offset=` (0 to MAX_OFFSET)."""

    default_limit = limits.DEFAULT_PAGE_SIZE
    max_limit = limits.MAX_PAGE_SIZE

    def get_limit(self, request):
        return _bounded(request, self.limit_query_param, 1, self.max_limit, self.default_limit)

    def get_offset(self, request):
        return _bounded(request, self.offset_query_param, 0, limits.MAX_OFFSET, 0)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": self.max_limit, "default": self.default_limit},
            self.offset_query_param: {"minimum": 0, "maximum": limits.MAX_OFFSET, "default": 0},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters


def _bounded(request, name: str, low: int, high: int, default: int) -> int:
    text = request.query_params.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValidationError(
            {name: [f"{limits.CITED_HOUSE_CONTROL}: give {name} as a whole number from {low} to {high}."]}
        ) from None
    if not low <= value <= high:
        raise ValidationError({name: [f"{name} must be from {low} to {high} ({limits.HOUSE_CONTROL})."]})
    return value


# For views that page by hand (an APIView rather than a list action).
PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        OpenApiTypes.INT,
        description=f"Rows per page, 1 to {limits.MAX_PAGE_SIZE} (default {limits.DEFAULT_PAGE_SIZE}).",
    ),
    OpenApiParameter("offset", OpenApiTypes.INT, description=f"The first row, 0 to {limits.MAX_OFFSET}."),
]
