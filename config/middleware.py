from zoneinfo import ZoneInfo

from django.core.exceptions import PermissionDenied
from django.utils import timezone

from cardroom.access import SESSION_KEY, access_for, station_refusal

_OWN_ZONES = ("/api/", "/registry/")


class CurrentSiteMiddleware:
    """`request.site`: the site the user is working at, chosen with the site switcher."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.site = None
        if request.user.is_authenticated:
            access = access_for(request.user)
            sites = list(access.sites())
            access.note_sites(sites)  # an organization-wide role's sites, for its checks (roles_at)
            chosen = request.session.get(SESSION_KEY)
            request.site = next((s for s in sites if s.pk == chosen), sites[0] if sites else None)
            request.visible_sites = sites
        if request.site is not None and not request.path_info.startswith(_OWN_ZONES):
            # A page prints times, and today's date, in the zone of the site it is worked at (a
            # Spokane shift's 2 a.m. is not Chicago's); a view showing another site's record
            # activates that site's zone instead (cardroom.views.show_site). The API
            # gives instants with their offset, and the registry is the state's, not a site's.
            timezone.activate(ZoneInfo(request.site.time_zone))
        try:
            return self.get_response(request)
        finally:
            # A view prints times in its site's zone (timezone.activate); the zone is the thread's,
            # so without this the next request served by the thread would print in it too.
            timezone.deactivate()


class StationWorkMiddleware:
    """A station's pages are those of its kind (`cardroom.access.station_refusal`, house
    control): a count tablet opens no slip form, a pit terminal no count session. The API says
    the same through its permission (`cardroom.api_permissions`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, *_view):  # Django calls it with the view and its arguments
        if not request.user.is_authenticated or request.path_info.startswith("/api/"):
            return None
        match = request.resolver_match
        route = (match.app_name, match.url_name) if match else ()
        writes = request.method not in ("GET", "HEAD", "OPTIONS")  # a page's reads are the station's own rule's
        refusal = station_refusal(access_for(request.user), *route, writes=writes)
        if refusal:
            raise PermissionDenied(refusal)
        return None
