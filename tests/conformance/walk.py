"""The addresses of a site, found from the URL conf (`django.urls.get_resolver`): every GET route,
its path parameters filled with the ids of the site's objects (from the links its pages show, as
its gaming manager sees them, else from the objects the builder made), and what could not be
filled, said with its reason."""

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlsplit

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.views.generic import RedirectView

# Not pages of a site: signing in and out, the API's schema and its viewer and the registry API's
# schema (the product's documentation, the same for every site), the favicon, the API's catch-all 404.
NOT_A_SITE_PAGE = {
    "login/": "the sign-in form",
    "logout/": "signs out (POST)",
    "favicon.ico": "an icon",
    "api/schema/": "the API's schema (documentation, the same for every site)",
    "api/docs/": "the API's viewer (documentation, the same for every site)",
    "registry/api/v1/schema/": "the state registry API's schema (documentation, the same for every site)",
    "^api/": "the API's catch-all 404",
    "api/v1/auth/token/": "signs in (POST)",
    "api/v1/auth/logout/": "signs out (POST)",
    "api/v1/auth/logout-all/": "signs out (POST)",
}
PARAM = re.compile(r"\(\?P<(\w+)>[^)]*\)|<(?:\w+:)?(\w+)>")
ROUNDS = 3  # link depth followed from the parameterless pages


@dataclass
class Addresses:
    paths: list[str] = field(default_factory=list)  # what every user of the site GETs
    skipped: dict[str, str] = field(default_factory=dict)  # route -> why it is not walked


def routes() -> list[tuple[str, URLPattern]]:
    def walk(patterns, prefix=""):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, prefix + str(entry.pattern))
            elif isinstance(entry, URLPattern):
                yield prefix + str(entry.pattern), entry

    seen, out = set(), []
    for route, pattern in walk(get_resolver().url_patterns):
        if route not in seen:
            seen.add(route)
            out.append((route, pattern))
    return out


def params(route: str) -> list[str]:
    return [a or b for a, b in PARAM.findall(route)]


def build_path(route: str, values: dict[str, object]) -> str:
    path = PARAM.sub(lambda m: str(values[m.group(1) or m.group(2)]), route)
    return "/" + path.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "")


def route_of(path: str) -> str | None:
    try:
        return resolve(urlsplit(path).path).route
    except Resolver404:
        return None


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name in ("href", "hx-get", "action"):
            if attributes.get(name) and (tag in ("a", "form") or name == "hx-get"):
                self.hrefs.append(attributes[name])


def links(response) -> list[str]:
    if "html" not in response.get("Content-Type", ""):
        return []
    parser = _Links()
    parser.feed(response.content.decode(errors="replace"))
    out = []
    for href in parser.hrefs:
        parts = urlsplit(href)
        if not parts.netloc and parts.path.startswith("/") and not parts.path.startswith("/static/"):
            out.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return out


def gets(pattern: URLPattern) -> bool:
    """Whether the route answers GET: a DRF viewset route names its methods; a view function is tried."""
    actions = getattr(pattern.callback, "actions", None)
    return actions is None or "get" in actions


def moved(pattern: URLPattern) -> bool:
    view_class = getattr(pattern.callback, "view_class", None)
    return view_class is not None and issubclass(view_class, RedirectView)


def first_id(client: Client, path: str, site_pk: int) -> int | None:
    """The first row's id of an API list, the site's own when the list filters by site."""
    for query in ({"site": site_pk, "limit": 5}, {"limit": 5}):
        response = client.get(path, query, HTTP_ACCEPT="application/json")
        if response.status_code != 200:
            continue
        body = response.json()
        rows = body.get("results", body) if isinstance(body, dict) else body
        if isinstance(rows, list) and rows and isinstance(rows[0], dict) and "id" in rows[0]:
            return rows[0]["id"]
    return None


def site_addresses(
    client: Client, built, fallbacks: dict, query_of: dict, extra: list[str], answers: dict | None = None
) -> Addresses:
    """Every GET address of the site as its gaming manager (signed in on `client`) reaches it;
    `answers`, if given, gets the response to each page it opened, by path (the gaming manager's
    walk reads them instead of asking again)."""
    result = Addresses()
    table = routes()
    found: dict[str, str] = {}  # route -> the first address of it a page links to
    plain: list[str] = []
    for route, pattern in table:
        if route in NOT_A_SITE_PAGE:
            result.skipped[route] = NOT_A_SITE_PAGE[route]
        elif "(?P<format>" in route or "<drf_format_suffix:format>" in route:
            result.skipped[route] = "a format suffix of a route walked without it (the same view)"
        elif not gets(pattern):
            result.skipped[route] = "answers no GET (a POST action)"
        elif moved(pattern):
            result.skipped[route] = "an old address, a permanent redirect (tests/core/test_moved_addresses.py)"
        elif not params(route):
            plain.append(build_path(route, {}))
    # The links of the parameterless pages, followed a few rounds: the addresses of routes with ids.
    frontier = [p for p in plain if not p.startswith("/api/")]
    visited = set()
    for _ in range(ROUNDS):
        next_round = []
        for path in frontier:
            if path in visited:
                continue
            visited.add(path)
            response = client.get(path)
            if answers is not None:
                answers[path] = response
            for link in links(response):
                route = route_of(link)
                if route is not None and params(route) and route not in found:
                    found[route] = link.split("?")[0]
                    next_round.append(found[route])
        frontier = next_round
    list_ids: dict[str, int | None] = {}
    paths = list(plain)
    for route, _pattern in table:
        names = params(route)
        if not names or route in result.skipped:
            continue
        if route.startswith("admin/"):
            result.skipped[route] = "an admin page of one object (the admin's lists are walked)"
            continue
        path = found.get(route) or _fallback(route, names, built, fallbacks, client, list_ids)
        if isinstance(path, str) and path.startswith("/"):
            paths.append(path)
        else:
            result.skipped[route] = path or "no object of the site to fill it with"
    paths = [_with_query(path, built, query_of) for path in paths] + extra
    result.paths = sorted(set(paths))
    return result


def _with_query(path: str, built, query_of: dict) -> str:
    """An address whose view needs a query (a date, a quarter) gets the site's."""
    try:
        name = resolve(path).url_name
    except Resolver404:
        return path
    return path + query_of[name](built) if name in query_of and "?" not in path else path


def _fallback(route: str, names: list[str], built, fallbacks: dict, client: Client, list_ids: dict) -> str | None:
    """The address of a route no page links to: its parameters from the builder's objects."""
    name = None
    try:
        name = next(p.name for r, p in routes() if r == route)
    except StopIteration:
        pass
    if name in fallbacks:
        values = fallbacks[name](built)
        return build_path(route, values) if values else f"no object of the site for {name}"
    if route.startswith("api/v1/^") and "(?P<pk>" in route:
        prefix = route.split("(?P<pk>")[0]
        list_path = build_path(prefix + "$", {})
        if prefix not in list_ids:
            list_ids[prefix] = first_id(client, list_path, built.site.pk)
        pk = list_ids[prefix]
        if pk is None:
            return f"the list {list_path} has no row at the site"
        values = {"pk": pk}
        missing = [n for n in names if n != "pk"]
        if missing:
            return f"no {', '.join(missing)} of the site"
        return build_path(route, values)
    values = {}
    for n in names:
        if n in ("site_id", "site_pk"):
            values[n] = built.site.pk
        elif n == "pk" and route.startswith("api/v1/sites/"):
            values[n] = built.site.pk
        elif n == "pk" and route.startswith("api/v1/organizations/"):
            values[n] = built.site.organization_id
        elif n == "pk" and route.startswith("api/v1/employees/"):
            values[n] = (built.users.get("dealer") or built.users["cashier"]).pk  # no dealer where players deal
        else:
            return None
    return build_path(route, values)
