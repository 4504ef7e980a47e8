"""The OpenAPI schema documents every answer an operation can give, errors included.

Each operation gets, beside the answers its view declares: 401 (no or a bad token), 403 (the
role may not act: the message names the rule or the role), 404 for an operation on one
object (ids outside the user's sites are not found), 400 when it reads query parameters or
a body (the message names the field and the rule), 413 when it reads a body
(`limits.MAX_BODY_BYTES`), and 429 where a rate limit applies. Every POST takes an optional
`Idempotency-Key` header (core.idempotency) and may answer 409 for a key reused with another
request. Request bodies declare `additionalProperties: false`: an unknown field is a 400
(core.api.StrictInputMixin)."""

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from drf_spectacular.hooks import postprocess_schema_enums
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import is_list_serializer
from rest_framework.generics import GenericAPIView

from . import limits
from .idempotency import HEADER as IDEMPOTENCY_HEADER
from .idempotency import REPLAYED_HEADER


class TokenScheme(KnoxTokenScheme):
    """knox's bearer token, as core.tokens.TokenAuthentication reads it (knox's own extension
    matches knox's class only)."""

    target_class = "core.tokens.TokenAuthentication"


DETAIL = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
# {"field": ["message", ...]} or {"detail": "..."}; a nested serializer's errors nest.
FIELD_ERRORS = {
    "type": "object",
    "additionalProperties": {},
    "description": "Each key names a field (or `non_field_errors`, `detail`), with its messages.",
}

ERRORS = {
    "400": ("Bad input: the message names the field and the rule.", FIELD_ERRORS),
    "401": ("No credentials, or credentials that are not valid.", DETAIL),
    "403": ("Your role may not do this here: the message names the rule or the role that may.", DETAIL),
    "404": ("Not found in the sites you may see.", DETAIL),
    "413": ("The request body is too large.", DETAIL),
    "409": (
        f"The {IDEMPOTENCY_HEADER} was used before with another request (method, path or body): "
        "send a new key for a new request, or the same request to retry.",
        DETAIL,
    ),
    "429": ("Too many requests: the message names the limit (house control) and when to try again.", DETAIL),
}


def _error(code: str) -> dict:
    description, schema = ERRORS[code]
    return {"description": description, "content": {"application/json": {"schema": schema}}}


class ErrorDocumentingSchema(AutoSchema):
    def _throttled(self) -> bool:
        """Whether a rate limit applies: writes are limited per user, sign-ins per address
        (core.throttles); reads only where a view sets a limit of its own."""
        throttles = list(getattr(self.view, "throttle_classes", ()))
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            return bool(throttles)
        return any(getattr(t, "scope", None) != "writes" for t in throttles)

    def _is_list_view(self, serializer=None):
        # A plain ViewSet's `list` (a site's slip register, its custody queues) answers one
        # object unless its serializer says many=True; only generic views list rows.
        if not isinstance(self.view, GenericAPIView) and getattr(self.view, "action", None) == "list":
            return is_list_serializer(serializer if serializer is not None else self.get_response_serializers())
        return super()._is_list_view(serializer)

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        parameters = operation.get("parameters", [])
        keyed = self.method == "POST" and getattr(self.view, "honours_idempotency_key", True)
        if keyed:  # every POST that honours it: a bad key is a 400, a key reused for another request a 409
            parameters.append(dict(IDEMPOTENCY_PARAMETER))
            operation["parameters"] = parameters
        codes = ["401", "403"]
        if any(p["in"] == "path" for p in parameters):
            codes.append("404")
        if parameters or "requestBody" in operation:
            codes.append("400")
        if "requestBody" in operation:
            codes.append("413")
        if self._throttled():
            codes.append("429")
        if keyed:
            codes.append("409")
            for code, response in operation["responses"].items():
                if code.startswith("2"):
                    response.setdefault("headers", {})[REPLAYED_HEADER] = REPLAYED
        responses = operation["responses"]
        for code in codes:
            if "content" not in responses.get(code, {}):
                responses[code] = _error(code)
        operation["responses"] = dict(sorted(responses.items()))
        return operation


IDEMPOTENCY_PARAMETER = {
    "in": "header",
    "name": IDEMPOTENCY_HEADER,
    "required": False,
    "description": (
        "Makes a retry safe (house control): a retry with the same key and the same request gets the "
        f"first answer again and writes nothing; the key is kept {limits.IDEMPOTENCY_KEY_HOURS} hours for "
        "a success (a refused request keeps nothing). Per user; a UUID is a good key."
    ),
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": limits.MAX_IDEMPOTENCY_KEY_LENGTH,
        "pattern": "^[ -~]+$",
    },
}
REPLAYED = {
    "description": "`true` when this is the kept answer to an earlier request with the same Idempotency-Key.",
    "schema": {"type": "string", "enum": ["true"]},
}


def organization_document(endpoints, **kwargs):
    """Preprocessing hook of /api/schema/: every endpoint but those another party documents in a
    schema of its own (a view's `schema_document`: the state registry's, registry.api_schema)."""
    return [e for e in endpoints if getattr(getattr(e[3], "cls", None), "schema_document", None) is None]


def forbid_unknown_fields(result, generator, request, public):
    """Request bodies (the `...Request` components of COMPONENT_SPLIT_REQUEST) take only their
    declared fields: an unknown field is a 400 (core.api.StrictInputMixin)."""
    result = postprocess_schema_enums(result, generator, request=request, public=public)
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request") and component.get("type") == "object" and "properties" in component:
            component["additionalProperties"] = False
    return result
