"""The filing package, version 1: what an organization's deployment sends a regulator's
registry when it files a quarter, and the anchors it sends nightly. Both sides of the wire
(statefiling, registry) build and check it here, so the hashed format has one definition.

A package is JSON:

    {"format": "cardroom.filing/1",
     "organization": {"name", "licence_number"},
     "site": {"id", "name", "jurisdiction"},
     "quarter": "2026Q3", "filed_at": ISO 8601, "filed_by": initials,
     "figures": {...}, "figures_sha256": SHA-256 of `figures` as canonical JSON,
     "tax": {...} or null,
     "chain_head": {"chain", "seq", "hash"} (the organization's audit chain at filing),
     "reports": [{"kind", "start", "end", "generated_at", "pdf_sha256", "data_sha256"}]
        (the reports stored for the site within the quarter when it was filed),
     "amends": null or the receipt number of the filing this one amends}

An amendment (a figure entered after the filing that changes its return) is a package of its
own for the same site and quarter, `amends` naming the original's receipt, `tax` null, no
reports, and `figures` = {"amendment": {id, source, figure, delta_cents, recorded_at,
recorded_by, entry}, "amends_figures_sha256": the filed figures' SHA-256}.

Its digest is SHA-256 of the whole package as canonical JSON (sorted keys, no spaces). The
registry recomputes `figures_sha256` and the package's digest; a package whose figures do not
hash to the digest it states is refused.
"""

import hashlib
import json
import re

FORMAT = "cardroom.filing/1"
QUARTER = re.compile(r"^\d{4}Q[1-4]$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
CHAIN = re.compile(r"^[a-z0-9-]{1,24}$")
REQUIRED = ("format", "organization", "site", "quarter", "filed_at", "figures", "figures_sha256", "chain_head")


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def digest(value) -> str:
    """SHA-256 of `value` as canonical JSON (the same digest as a filed quarter's figures)."""
    return hashlib.sha256(canonical(value)).hexdigest()


def problems(package) -> dict[str, str]:
    """{field: what is wrong} for a package that is not a version-1 filing package; empty if it is."""
    if not isinstance(package, dict):
        return {"package": "a filing package is a JSON object."}
    found = {key: f"the package needs `{key}`." for key in REQUIRED if key not in package}
    if found:
        return found
    if package["format"] != FORMAT:
        found["format"] = f"this registry reads {FORMAT}."
    site = package["site"]
    if not (isinstance(site, dict) and isinstance(site.get("id"), int) and isinstance(site.get("name"), str)):
        found["site"] = "give the site as {id, name, jurisdiction}."
    if not (isinstance(package["quarter"], str) and QUARTER.match(package["quarter"])):
        found["quarter"] = "a quarter is YYYYQn, for example 2026Q3."
    if not isinstance(package["figures"], dict):
        found["figures"] = "the filed figures are a JSON object."
    elif package["figures_sha256"] != digest(package["figures"]):
        found["figures_sha256"] = "the figures do not hash to the SHA-256 the package states."
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
    return found


def anchor_problems(anchor) -> dict[str, str]:
    """{field: what is wrong} for an anchor that is not {chain, seq, hash, head_at}."""
    if not isinstance(anchor, dict):
        return {"anchor": "an anchor is a JSON object {chain, seq, hash, head_at}."}
    found = {}
    if not (isinstance(anchor.get("chain"), str) and CHAIN.match(anchor["chain"])):
        found["chain"] = "a chain is named like org-3."
    if isinstance(anchor.get("seq"), bool) or not isinstance(anchor.get("seq"), int) or anchor["seq"] < 1:
        found["seq"] = "an event's number in its chain is a whole number from 1."
    if not (isinstance(anchor.get("hash"), str) and HEX64.match(anchor["hash"])):
        found["hash"] = "a head's hash is 64 lowercase hex digits."
    if not isinstance(anchor.get("head_at"), str):
        found["head_at"] = "give the head event's time (ISO 8601)."
    return found
