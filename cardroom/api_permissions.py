"""Who may call the API at all, before any view's own rules (DRF's DEFAULT_PERMISSION_CLASSES).

Kept apart from cardroom.api: DRF imports these while its own views module is loading."""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from .access import STATION_READS, access_for


class StationReadsThePit(BasePermission):
    """A station's reads go only to the endpoints of `STATION_READS` (house control); its
    writes are each initialled with a person's badge and PIN (cardroom.pins)."""

    message = STATION_READS.refusal()

    def has_permission(self, request, view):
        if request.method not in SAFE_METHODS:
            return True
        match = request.resolver_match
        return STATION_READS.allows(access_for(request.user), match.url_name if match else None)
