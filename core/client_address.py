"""The address a request comes from, for every per-address limit (house control).

One answer for the API's sign-in throttle, the browser and admin sign-in limits
(core.throttles) and django-axes (`AXES_CLIENT_IP_CALLABLE`). `X-Forwarded-For` is any
client's to write: it is read only when `settings.TRUSTED_PROXIES` proxies stand in front of
the app, and then only the hop the nearest of them vouches for. With none (the default) the
address is the connection's own (`REMOTE_ADDR`) and the header is ignored."""

import ipaddress

from django.conf import settings


def client_address(request) -> str | None:
    """With N trusted proxies each appends the address it was reached from, so the client is
    the N-th address from the right of `X-Forwarded-For` (DRF's `NUM_PROXIES` rule); what a
    client wrote further left is never read. An unreadable hop falls back to `REMOTE_ADDR`."""
    meta = getattr(request, "META", {})
    remote = meta.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXIES
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in forwarded.split(",")]
    hop = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(hop))
    except ValueError:
        return remote
