"""The OpenAPI schema documents every answer an operation can give, errors included.

Each operation gets, beside the answers its view declares: 401 (no or a bad token), 403 (the
role may not act: the message names the rule or the role), 404 for an operation on one
object (ids outside the user's sites are not found), 400 when it reads query parameters or
a body (the message names the field and the rule), 413 when it reads a body
(`limits.MAX_BODY_BYTES`), and 429 where a rate limit applies."""

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import is_list_serializer
from rest_framework.generics import GenericAPIView

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
    "429": ("Too many requests: the message names the limit (house control) and when to try again.", DETAIL),
}


def _error(code: str) -> dict:
    description, schema = ERRORS[code]
    return {"description": description, "content": {"application/json": {"schema": schema}}}


class ErrorDocumentingSchema(AutoSchema):
    def _throttled(self) -> bool:
        """Whether a rate limit applies: writes are limited per user, sign-ins per address
        (cardroom.throttles); reads only where a view sets a limit of its own."""
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
        codes = ["401", "403"]
        if any(p["in"] == "path" for p in parameters):
            codes.append("404")
        if parameters or "requestBody" in operation:
            codes.append("400")
        if "requestBody" in operation:
            codes.append("413")
        if self._throttled():
            codes.append("429")
        responses = operation["responses"]
        for code in codes:
            if "content" not in responses.get(code, {}):
                responses[code] = _error(code)
        operation["responses"] = dict(sorted(responses.items()))
        return operation
