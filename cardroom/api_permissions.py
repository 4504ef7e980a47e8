"""Who may call the API at all, before any view's own rules (DRF's DEFAULT_PERMISSION_CLASSES).

Kept apart from cardroom.api: DRF imports these while its own views module is loading."""

from rest_framework.permissions import SAFE_METHODS, BasePermission

from .access import STATION_READS, access_for, station_refusal


class StationReadsThePit(BasePermission):
    """A station's reads go only to the endpoints of `STATION_READS` (house control); its
    writes are each initialled with a person's badge and PIN (cardroom.pins), and go only to the
    app of its kind (`station_refusal`: a count tablet posts no slip, a pit terminal no count)."""

    message = STATION_READS.refusal()

    def has_permission(self, request, view):
        access, match = access_for(request.user), request.resolver_match
        route = match.url_name if match else None
        # A station's kind decides which app's steps it takes (a count tablet posts no slip).
        app, writes = type(view).__module__.partition(".")[0], request.method not in SAFE_METHODS
        if refusal := station_refusal(access, app, route, writes=writes):
            self.message = refusal
            return False
        if request.method not in SAFE_METHODS:
            return True
        return STATION_READS.allows(access, route)
