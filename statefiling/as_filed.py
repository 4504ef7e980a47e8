"""Whether a filed quarter's records still read as they were filed: its frozen figures
(`QuarterFiling.figures`, hashed as accounting hashes them, `accounting.published.figures_digest`)
and the dealers' hold frozen beside them (`FiledDealers.digest`), each against the SHA-256 stored
with it at filing; and a package already queued against both. The rows are append-only (database
triggers), but one changed behind them (by a database owner, or a restore) would be sent to the
state as filed: no package is built or sent from it. The problem is named as the audit log's
verification names a row altered behind the application's back (`core.audit_verify.Problem`:
organization, chain, table and id), citing the rule the package carries (the pack's quarterly
summary, or House control where the pack states none).

A row rewritten together with its stored digest still hashes to it: so each row is also read
against the `row.created` event the audit chain recorded when it was written (or the `row.baseline`
event of a row that existed when rows were covered, cardroom 0004: QuarterFiling is older than
that migration, FiledDealers younger; none is without one), by the audit log's own check of a row
(`core.audit_verify.verify_rows`: each event still hashes and links, each row's canonical values
are those it recorded). Two queries a row by index, not a walk of the chain.

That event links to nothing after it while it is the last of its chain (right after filing), and
still links when every event after it is rehashed with it: a row rewritten with its event's record,
digest and hash alike still reads as recorded. So before a package is sent (`registries`), the
rows' events are read against the heads the state registries hold of their chain, beyond the
organization's reach, once for the filing (`verify_rows(registries=True)`: one request a registry,
and the chain walked from the earlier of the two events to the farthest head; a break after both
is named once, at both rows). Not when a package is built: a filing never waits on the network
(statefiling.services), and the package built is read so again before it is sent."""

from dataclasses import replace

from accounting import published
from accounting.models import QuarterFiling
from accounting.rules import QUARTERLY_SUMMARY
from core.audit import chain_name
from core.audit_verify import Problem, verify_rows

from .models import FiledDealers, Submission

NOT_SENT = "changed behind the application's back: its package is not sent to the state registry until it is set right"


def read(
    filing: QuarterFiling, queued: Submission | None = None, *, registries: bool = False
) -> tuple[FiledDealers | None, str | None]:
    """The filing's frozen dealers' hold (its `FiledDealers` row, None for a quarter filed before
    it was kept), read once, and what of the filing is altered (`altered`), or None where nothing
    is: what a package is built from is the row just checked, and a package is built or sent only
    where nothing is (House control: what reaches the state is what was filed)."""
    frozen = FiledDealers.objects.filter(filing=filing).first()
    return frozen, altered(filing, frozen, queued, registries=registries) or None


def altered(
    filing: QuarterFiling, frozen: FiledDealers | None, queued: Submission | None = None, *, registries: bool = False
) -> str:
    """Empty where the filing's figures and its frozen dealers' hold (None: a quarter filed before
    it was kept) hash to their stored digests and read as their row events recorded them (with
    `registries`, their row events also against the state registries' heads of their chain, once),
    and the package `queued` (a filing's own, not an amendment's) carries them; else each mismatch
    (one a row, a break the registries' heads show once), named after the rule cited."""
    found, hashing = [], []
    figures_now = published.figures_digest(filing.figures)
    if figures_now != filing.figures_sha256:
        found.append(_named(filing, filing, "figures no longer hash", filing.figures_sha256, figures_now))
    else:
        hashing.append(filing)
    if frozen is not None:
        dealers_now = FiledDealers.digest(frozen.dealers, frozen.dealers_without_identifier)
        if dealers_now != frozen.dealers_sha256:
            what = "dealers, dealers_without_identifier no longer hash"
            found.append(_named(filing, frozen, what, frozen.dealers_sha256, dealers_now))
        else:
            hashing.append(frozen)
    found += _unrecorded(hashing, registries)
    if queued is not None and not found:
        found += _package_differs(filing, frozen, queued)
    return f"{QUARTERLY_SUMMARY.at(filing.site)}: {' '.join(found)}" if found else ""


def _named(filing: QuarterFiling, row, what: str, filed: str, now: str) -> str:
    """`row` named as the audit log's verification names a row altered behind the application's back."""
    organization_id = filing.site.organization_id
    reason = f"{what} to the SHA-256 filed, {filed} (now {now}): {NOT_SENT}."
    return str(Problem(reason, chain_name(organization_id), organization_id, None, row._meta.db_table, row.pk))


def _unrecorded(rows: list, registries: bool) -> list[str]:
    """The rows against the row events recorded when they were written, named as `verify_audit_log`
    names them (a row rewritten with a digest that matches it still differs from its event); with
    `registries`, their events against the state registries' heads of their chain, once."""
    problems = verify_rows([(type(row), row.pk) for row in rows], registries=registries)
    return [str(replace(problem, reason=f"{problem.reason}: {NOT_SENT}.")) for problem in problems]


def _package_differs(filing: QuarterFiling, frozen: FiledDealers | None, queued: Submission) -> list[str]:
    """A queued package (its outbox row is not append-only) against the rows it was built from."""
    package = queued.package
    sent = published.figures_digest(package.get("figures"))
    if package.get("figures_sha256") != filing.figures_sha256 or sent != filing.figures_sha256:
        return [_named(filing, queued, "the package's figures do not hash", filing.figures_sha256, sent)]
    if frozen is not None:
        dealers = FiledDealers.digest(package.get("dealers"), package.get("dealers_without_identifier", 0))
        if dealers != frozen.dealers_sha256:
            return [_named(filing, queued, "the package's dealers' hold does not hash", frozen.dealers_sha256, dealers)]
    return []
