"""Request bodies the API reads: JSON no larger than `limits.MAX_BODY_BYTES` and nested no
deeper than `limits.MAX_JSON_DEPTH` (house controls). Python's JSON decoder recurses, so JSON
nested thousands deep would otherwise end in a RecursionError (a server error).

No body holds text no database keeps (`limits.UNKEEPABLE`: a NUL, half a surrogate pair) in any
value or key, whatever field reads it (a DRF CharField checks its own text, but a JSON object, a
list's items, a choice or an unknown field's name do not): refused as it is parsed, keyed by where
it is ("lines[0].note"), before any view reads it. A query parameter or header holding one is
refused by `KeptTextMiddleware` before any view runs."""

import codecs
import json

from django.conf import settings
from django.http import JsonResponse
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.settings import api_settings
from rest_framework.utils import json as drf_json

from . import limits


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"

    def __init__(self):
        size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        super().__init__(f"The request body is larger than {size:,} bytes ({limits.HOUSE_CONTROL}).")


def refuse_large_body(request) -> None:
    """Refuse a body whose declared length is over the limit before anything reads it (DRF
    reads JSON and form bodies as a stream, which Django's own limit does not cover)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise ParseError("Content-Length is not a number.") from None
    if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        raise BodyTooLarge()


def json_depth(value) -> int:
    """How deeply arrays and objects nest in `value` (a scalar is 0), without recursing."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth > limits.MAX_JSON_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _too_deep() -> ParseError:
    return ParseError(f"JSON nested deeper than {limits.MAX_JSON_DEPTH} levels ({limits.HOUSE_CONTROL}).")


def _no_repeated_keys(pairs):
    """An object naming one key twice says one field two ways: refused, not last-one-wins."""
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ParseError({key: [f"House control: the field {key!r} is given twice; give it once."]})
        seen[key] = value
    return seen


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_large_body((parser_context or {})["request"])
        encoding = parsers.get_encoding(parser_context or {})
        try:
            data = json.load(
                codecs.getreader(encoding)(stream),
                object_pairs_hook=_no_repeated_keys,
                parse_constant=drf_json.strict_constant if self.strict else None,
            )
        except RecursionError:
            raise _too_deep() from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc} ({limits.HOUSE_CONTROL}).") from None
        if json_depth(data) > limits.MAX_JSON_DEPTH:
            raise _too_deep()
        return _kept(data)


def _kept(data):
    """`data` (a parsed JSON body), or ParseError keyed by where it holds text no database keeps."""
    _refuse_unkept(limits.unkeepable_text(data))
    return data


def _unkept_field(fields) -> str | None:
    """Of (name, [values]) pairs (a form's fields, a query string, headers), the name of the first
    holding text no database keeps ("" where it is in a name itself), or None."""
    for name, values in fields:
        if limits.UNKEEPABLE.search(name):
            return ""
        if any(limits.UNKEEPABLE.search(value) for value in values if isinstance(value, str)):
            return name
    return None


def _refusal_of_unkept(where: str) -> dict[str, list[str]]:
    """The 400's body: the refusal keyed by where (`non_field_errors` for "": the body itself, or
    a name that cannot be shown)."""
    return {where or api_settings.NON_FIELD_ERRORS_KEY: [limits.unkeepable_message()]}


def _refuse_unkept(where: str | None) -> None:
    if where is not None:
        raise ParseError(_refusal_of_unkept(where))


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_large_body((parser_context or {})["request"])
        data = super().parse(stream, media_type, parser_context)
        _refuse_unkept(_unkept_field(data.lists()))
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_large_body((parser_context or {})["request"])
        parsed = super().parse(stream, media_type, parser_context)
        names = [(field, [upload.name for upload in uploads]) for field, uploads in parsed.files.lists()]
        _refuse_unkept(_unkept_field([*parsed.data.lists(), *names]))
        return parsed


class KeptTextMiddleware:
    """No query parameter or header of the API holds text no database keeps (`limits.UNKEEPABLE`;
    HTTP allows no NUL in a header, and a query string decodes half a surrogate pair as U+FFFD, so
    in practice a NUL): a 400 keyed by the parameter or header, before any view, filter, page or
    authentication reads it. A filter's own check said "Null characters are not allowed." naming
    no rule, a yes-or-no filter ignored it, and a token holding one reached PostgreSQL's refusal."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(API_PREFIXES):
            headers = [(name, [value]) for name, value in request.headers.items()]
            where = _unkept_field([*request.GET.lists(), *headers])
            if where is not None:
                return JsonResponse(_refusal_of_unkept(where), status=400)
        return self.get_response(request)


API_PREFIXES = ("/api/", "/registry/api/")  # the organization's API and the state registry's
