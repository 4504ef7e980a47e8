"""The filing package, version 2: what an organization's deployment sends a regulator's
registry when it files a quarter, and the anchors it sends nightly. Both sides of the wire
(statefiling, registry) build and check it here, so the hashed format has one definition.

A package is JSON:

    {"format": "cardroom.filing/2",
     "organization": {"name", "licence_number"},
     "site": {"id", "name", "jurisdiction"},
     "quarter": "2026Q3", "filed_at": ISO 8601, "filed_by": initials,
     "figures": {...}, "figures_sha256": SHA-256 of `figures` as canonical JSON,
     "tax": {...} or null,
     "chain_head": {"chain", "seq", "hash"} (the organization's audit chain at filing),
     "reports": [{"kind", "start", "end", "generated_at", "pdf_sha256", "data_sha256"}]
        (the reports stored for the site within the quarter when it was filed),
     "amends": null or the receipt number of the filing this one amends,
     "dealers": null (the site's pack names no state-issued employee identifier, or its games
        have no percent-of-hold) or [{"identifier", "name", "game", "shifts",
        "separable_shifts", "drop_cents", "gross_proceeds_cents", "prizes_cents", "agp_cents",
        "hold_ratio"}]: each dealer's hold at the site for the quarter (their separable shifts)
        keyed by the identifier the state issued them, as it stood when the quarter was filed,
     "dealers_without_identifier": how many dealers dealt there with no identifier recorded}

An amendment (a figure entered after the filing that changes its return) is a package of its
own for the same site and quarter, `amends` naming the original's receipt, no reports, and
`figures` = {"amendment": {id, source, figure, delta_cents, recorded_at, recorded_by, entry},
"amends_figures_sha256": the filed figures' SHA-256, "return_now": [{figure, filed_cents,
amendments_since_cents, now_cents}] (the return as it now stands beside the filed one, the
gaming tax among its lines where the pack levies one)}; its `tax` is the tax now ({"filed_cents",
"now_cents"}, or null where no tax is levied) and its `dealers` the dealers' hold now.

Each `return_now` line's `figure` is one of `RETURN_NOW_FIGURES`' names (the words the
organization's quarter page gives its filed return's lines); a registry reads a line by it
(`return_now_figures`) as the figure a filed return's `summary.total` keys otherwise (a fees
site's return, figures format version 3, has no `summary.total`: its revenue is
`summary.pack`, its cash profit `summary.cash_profit_cents`).

Version 1 (read, no longer written) had neither `dealers` nor `return_now`, and an
amendment's `tax` was null.

Its digest is SHA-256 of the whole package as canonical JSON (sorted keys, no spaces). The
registry recomputes `figures_sha256` and the package's digest; a package whose figures do not
hash to the digest it states is refused.
"""

import hashlib
import json
import re

from . import limits

FORMAT = "cardroom.filing/2"
READS = ("cardroom.filing/1", FORMAT)  # the versions a registry accepts
QUARTER = re.compile(r"^\d{4}Q[1-4]$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
CHAIN = re.compile(r"^[a-z0-9-]{1,24}$")
REQUIRED = ("format", "organization", "site", "quarter", "filed_at", "figures", "figures_sha256", "chain_head")


# An amendment's `return_now` lines by name (`accounting.books.filed_beside_now` names them so):
# the figure each restates, keyed as a filed return's `summary.total` and `tax` key it.
RETURN_NOW_FIGURES = {
    "Gross proceeds": "gross_proceeds_cents",
    "Prizes": "prizes_cents",
    "AGP": "agp_cents",
    "Cash profit": "cash_profit_cents",
    "Other games' AGP": "other_games_agp_cents",
    "AGP of the organization's sites": "sites_agp_cents",
    "Gaming tax": "tax_cents",
    # Where the filing froze tournament play (a void of a fee or prize on it amends these lines)
    "Tournament gross proceeds": "tournament_gross_proceeds_cents",
    "Tournament prizes": "tournament_prizes_cents",
    "Tournament AGP": "tournament_agp_cents",
    # A fees or session site's return (a filing's `summary.pack`, format version 2 of the figures;
    # from version 3 in place of the drop's blocks)
    "Table fees collected": "fees_collected_cents",
    "Table fees counted": "fees_counted_cents",
    "Session receipts": "session_receipts_cents",
    "Session prizes": "session_prizes_cents",
    "Session net": "session_net_cents",
}


def return_now_figures(figures) -> dict[str, dict]:
    """{figure key: its line} of an amendment's `return_now` (empty for an original, a version-1
    amendment or a line this version does not name): each line {figure, filed_cents,
    amendments_since_cents, now_cents} under the key of the figure it restates."""
    lines = figures.get("return_now") if isinstance(figures, dict) else None
    if not isinstance(lines, list):
        return {}
    return {
        RETURN_NOW_FIGURES[line["figure"]]: line
        for line in lines
        if isinstance(line, dict) and line.get("figure") in RETURN_NOW_FIGURES
    }


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def digest(value) -> str:
    """SHA-256 of `value` as canonical JSON (the same digest as a filed quarter's figures)."""
    return hashlib.sha256(canonical(value)).hexdigest()


def problems(package) -> dict[str, str]:
    """{field: what is wrong} for a package that is not a version-1 filing package; empty if it is."""
    if not isinstance(package, dict):
        return {"package": "a filing package is a JSON object."}
    where = limits.unkeepable_text(package)  # a NUL or half a surrogate pair
    if where is not None:
        return {where or "package": limits.UNKEEPABLE_TEXT}
    found = {key: f"the package needs `{key}`." for key in REQUIRED if key not in package}
    if found:
        return found
    if package["format"] not in READS:
        found["format"] = f"this registry reads {' and '.join(READS)}."
    site = package["site"]
    if not (isinstance(site, dict) and whole(site.get("id"), 1) and isinstance(site.get("name"), str)):
        found["site"] = "give the site as {id, name, jurisdiction}."
    if not (isinstance(package["quarter"], str) and QUARTER.match(package["quarter"])):
        found["quarter"] = "a quarter is YYYYQn, for example 2026Q3."
    if not isinstance(package["figures"], dict):
        found["figures"] = "the filed figures are a JSON object."
    elif package["figures_sha256"] != digest(package["figures"]):
        found["figures_sha256"] = "the figures do not hash to the SHA-256 the package states."
    else:
        found.update(figure_problems(package["figures"]))
    head = package["chain_head"]
    if not (
        isinstance(head, dict)
        and isinstance(head.get("seq"), int)
        and isinstance(head.get("chain"), str)
        and CHAIN.match(head["chain"])
        and isinstance(head.get("hash"), str)
        and HEX64.match(head["hash"])
    ):
        found["chain_head"] = "give the audit chain's head at filing as {chain, seq, hash}."
    amends = package.get("amends")
    if amends is not None and not isinstance(amends, str):
        found["amends"] = "give the receipt number of the filing this package amends."
    found.update(dealer_problems(package.get("dealers")))
    found.update(_amounts("tax", package.get("tax"), TAX_AMOUNTS))
    if not (package.get("dealers_without_identifier") is None or whole(package["dealers_without_identifier"], 0)):
        found["dealers_without_identifier"] = "give how many dealers dealt with no identifier, or null."
    return found


MAX_REF = 2**63 - 1  # the largest id or number a registry's database holds (a 64-bit integer)
# The amounts a registry reads from a package (its quarter's page and downloads): each a whole
# number of cents or null, so a licensee's package never breaks the agency's pages.
TOTAL_AMOUNTS = ("drop_cents", "gross_proceeds_cents", "prizes_cents", "agp_cents")
TOURNAMENT_AMOUNTS = ("gross_proceeds_cents", "prizes_cents", "agp_cents")  # a return's tournament play
TAX_AMOUNTS = ("organization_agp_cents", "organization_tax_cents", "tax_cents", "filed_cents", "now_cents")
PACK_AMOUNTS = {
    "fees": ("fees_collected_cents", "fees_counted_cents"),
    "sessions": ("receipts_cents", "prizes_cents", "net_cents"),
}
LINE_AMOUNTS = ("filed_cents", "amendments_since_cents", "now_cents")


def whole(value, lowest: int, highest: int = MAX_REF) -> bool:
    """A JSON whole number (never true or false) from `lowest` to `highest`."""
    return isinstance(value, int) and not isinstance(value, bool) and lowest <= value <= highest


def _amounts(field: str, value, names) -> dict[str, str]:
    """{field: what is wrong} for an object (or null) whose `names` are each cents or null."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        return {field: "give it as a JSON object, or null."}
    for name in names:
        if not (value.get(name) is None or whole(value[name], -MAX_CENTS, MAX_CENTS)):
            return {f"{field}.{name}": "give a whole number of cents, or null."}
    return {}


def figure_problems(figures: dict) -> dict[str, str]:
    """{field: what is wrong} for the filed figures a registry reads: a return's totals, cash
    profit and fees or sessions (`summary`), an amendment's change (`amendment`) and the return
    now (`return_now`); the rest of the figures is the licensee's, kept as sent."""
    found = {}
    summary = figures.get("summary")
    if isinstance(summary, dict):
        found.update(_amounts("figures.summary.total", summary.get("total"), TOTAL_AMOUNTS))
        ratio = summary.get("total", {}).get("hold_ratio") if isinstance(summary.get("total"), dict) else None
        if ratio is not None and not isinstance(ratio, str):
            found["figures.summary.total.hold_ratio"] = "give the hold as a decimal string, or null."
        found.update(_amounts("figures.summary", summary, ("cash_profit_cents",)))
        found.update(_amounts("figures.summary.tournaments", summary.get("tournaments"), TOURNAMENT_AMOUNTS))
        pack = summary.get("pack")
        found.update(_amounts("figures.summary.pack", pack, ()))
        for name, amounts in PACK_AMOUNTS.items() if isinstance(pack, dict) else ():
            found.update(_amounts(f"figures.summary.pack.{name}", pack.get(name), amounts))
    change = figures.get("amendment")
    found.update(_amounts("figures.amendment", change, ("delta_cents",)))
    if isinstance(change, dict) and not isinstance(change.get("figure"), str):
        found["figures.amendment.figure"] = "name the figure the amendment changes."
    lines = figures.get("return_now")
    if lines is not None and not isinstance(lines, list):
        found["figures.return_now"] = "give the return now as a list of lines, or null."
    for index, line in enumerate(lines if isinstance(lines, list) else ()):
        found.update(_amounts(f"figures.return_now[{index}]", line, LINE_AMOUNTS))
    return found


DEALER_TEXTS = {"identifier": 40, "name": 200, "game": 4}
DEALER_NUMBERS = (
    "shifts",
    "separable_shifts",
    "drop_cents",
    "gross_proceeds_cents",
    "prizes_cents",
    "agp_cents",
)
MAX_DEALERS = 2000
COUNTS = ("shifts", "separable_shifts", "drop_cents", "gross_proceeds_cents")  # never below zero
MAX_CENTS = 10**15
IDENTIFIER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*$")


def dealer_problems(dealers) -> dict[str, str]:
    """{field: what is wrong} for a package's `dealers` (null, or a list of dealers' holds)."""
    if dealers is None:
        return {}
    if not isinstance(dealers, list) or len(dealers) > MAX_DEALERS:
        return {"dealers": f"give the dealers' hold as a list of at most {MAX_DEALERS}, or null."}
    for index, dealer in enumerate(dealers):
        if not isinstance(dealer, dict):
            return {f"dealers[{index}]": "a dealer's hold is a JSON object."}
        for name, most in DEALER_TEXTS.items():
            if not (isinstance(dealer.get(name), str) and 1 <= len(dealer[name]) <= most):
                return {f"dealers[{index}].{name}": f"give the dealer's {name} (1 to {most} characters)."}
        if not IDENTIFIER.match(dealer["identifier"]):
            return {f"dealers[{index}].identifier": "an identifier is letters, digits and hyphens."}
        for name in DEALER_NUMBERS:
            value = dealer.get(name)
            lowest = 0 if name in COUNTS else -MAX_CENTS
            if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= MAX_CENTS:
                return {f"dealers[{index}].{name}": f"give a whole number from {lowest} (amounts in cents)."}
        ratio = dealer.get("hold_ratio")
        if ratio is not None and not (isinstance(ratio, str) and RATIO.match(ratio)):
            return {f"dealers[{index}].hold_ratio": "give the hold as a decimal string, or null."}
    return {}


RATIO = re.compile(r"^-?\d{1,6}\.\d{1,6}$")


def anchor_problems(anchor) -> dict[str, str]:
    """{field: what is wrong} for an anchor that is not {chain, seq, hash, head_at}."""
    if not isinstance(anchor, dict):
        return {"anchor": "an anchor is a JSON object {chain, seq, hash, head_at}."}
    where = limits.unkeepable_text(anchor)
    if where is not None:
        return {where or "anchor": limits.UNKEEPABLE_TEXT}
    found = {}
    if not (isinstance(anchor.get("chain"), str) and CHAIN.match(anchor["chain"])):
        found["chain"] = "a chain is named like org-3."
    if not whole(anchor.get("seq"), 1):
        found["seq"] = "an event's number in its chain is a whole number from 1."
    if not (isinstance(anchor.get("hash"), str) and HEX64.match(anchor["hash"])):
        found["hash"] = "a head's hash is 64 lowercase hex digits."
    if not isinstance(anchor.get("head_at"), str):
        found["head_at"] = "give the head event's time (ISO 8601)."
    return found
