"""Request bodies the API reads: JSON no larger than `limits.MAX_BODY_BYTES` and nested no
deeper than `limits.MAX_JSON_DEPTH` (house controls). Python's JSON decoder recurses, so JSON
nested thousands deep would otherwise end in a RecursionError (a server error)."""

import codecs
import json

from django.conf import settings
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError
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
        return data


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_large_body((parser_context or {})["request"])
        return super().parse(stream, media_type, parser_context)


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        refuse_large_body((parser_context or {})["request"])
        return super().parse(stream, media_type, parser_context)
