"""A table fee on the pit terminal (WA-BJ: fees assessed on a time basis and collected by the
direct collection method, WAC 230-40-125(1)): what a station offers to collect one at a table
with a badge and PIN. Floor's terminal asks it through the `pit_fee_step` hook (core.hooks,
answered in fees.apps), so imports keep pointing down; the service (`services.record_fee`) still
decides who may collect and what a fee may be.

Two queries for a terminal at a fees site (each table's last fee, the site's), none for the
pit's link nor elsewhere."""

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from cardroom.models import Site, Table

from . import queries, rules, services
from .models import FeeBasis, FeeCollection

# How far back a table's last fee is looked for: the next collection most likely repeats its basis,
# period and rate; a fee older than this is not offered as the one to repeat.
LAST_FEE_DAYS = 31


@dataclass(frozen=True)
class FeeStep:
    """A table fee at a fees site: who may collect it (`rules.COLLECTORS`), and the terminal's data,
    read only when a terminal asks for it (`data`: the pit's link needs the roles alone)."""

    site: Site
    roles: frozenset = rules.COLLECTORS

    def data(self) -> dict:
        """The terminal's fee data: the rule, the bases and each table's last fee (`last_fees`);
        the bounds are the service's, refused with their rule when sent; the rate's, with their
        rule, are what the terminal says of a rate it cannot read as money."""
        return {
            "rule": rules.TABLE_FEES.at(self.site),
            "rate_bounds": services.rate_bounds(),
            "bases": [{"value": value, "label": label} for value, label in FeeBasis.choices],
            "last": last_fees(self.site),
        }


def pit_fee_step(site) -> FeeStep | None:
    """None where the site's revenue is not its table fees; else its `FeeStep`."""
    return FeeStep(site) if rules.keeps_table_fees(site) else None


def last_fees(site) -> dict[str, dict]:
    """{table id (a string, as JSON keys are): its last fee standing (not a void, not voided) in
    the last LAST_FEE_DAYS days: basis, period_minutes, rate_cents, count}, tables with none left
    out; and "site": the site's last terms (`queries.last_terms`: basis, period, rate; no count)
    for a table's first fee, as the fees page starts from them. Two queries: each active table's
    last fee by a probe of its own rows, and the site's."""
    since = timezone.now() - timedelta(days=LAST_FEE_DAYS)
    standing = FeeCollection.objects.filter(queries.STANDING, table=OuterRef("pk"), collected_at__gte=since)
    standing = standing.order_by("-collected_at", "-id")
    fields = ("basis", "period_minutes", "rate_cents", "count")
    tables = Table.objects.filter(site=site, active=True).annotate(
        **{f"last_{name}": Subquery(standing.values(name)[:1]) for name in fields}
    )
    found = {}
    for row in tables.values("pk", *(f"last_{name}" for name in fields)):
        if row["last_basis"] is not None:
            found[str(row["pk"])] = {name: row[f"last_{name}"] for name in fields}
    site_terms = queries.last_terms(site)
    if site_terms:
        found["site"] = site_terms
    return found
