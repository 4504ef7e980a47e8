"""Anchors: the head of each audit chain, written outside the database.

A hash chain proves that nothing in the middle changed, but someone who can write the
database can cut events off the end, or rewrite an event and recompute every hash after it,
and the chain still links. An anchor is a copy of a chain's head (chain, organization, seq,
hash, time) kept where the database's writer cannot reach: `verify_audit_log` then fails
when an anchored event is gone (the tail was cut) or has another hash (the chain was
rewritten). House control; chapter 99-01.3-08 does not say how records are sealed.

Anchors are written by `manage.py audit_anchor` and the nightly Celery job: one JSON line
per chain appended to `<AUDIT_ANCHOR_DIR>/<chain>.jsonl` (default `VAR_DIR/audit-anchors/`),
opened with O_APPEND and fsynced, never rewritten. The file is only as safe as the place it
is kept: the README says how to keep it beyond the database's reach (another host, an
append-only attribute, a write-once bucket). Every generated report also prints its
organization's head in the footer, so a report in an auditor's hands is an anchor too.
"""

import json
import os
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from . import hooks
from .audit import ChainHead, chain_heads


@dataclass(frozen=True)
class Anchor:
    chain: str
    organization_id: int | None
    seq: int
    hash: str
    anchored_at: str
    source: str  # "file:line", to name it in a failure

    def describe(self) -> str:
        return f"the anchor of {self.anchored_at} ({self.source})"


@dataclass(frozen=True)
class RegistryCheck:
    """The chain checked against the heads a state registry holds (`check_against_registries`)."""

    ok: bool
    heads: int  # the heads matched
    problem: str = ""


class AnchorFileError(ValueError):
    """A line of an anchor file that is not an anchor."""


def anchor_directory() -> Path:
    return Path(settings.AUDIT_ANCHOR_DIR)


def _append_line(path: Path, line: str) -> None:
    created = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
    try:
        os.write(fd, line.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:  # the new file's directory entry must survive a crash too
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def anchor_line(head: ChainHead, anchored_at) -> str:
    return (
        json.dumps(
            {
                "chain": head.chain,
                "organization_id": head.organization_id,
                "seq": head.seq,
                "hash": head.hash,
                "head_at": head.occurred_at.astimezone(UTC).isoformat(),
                "anchored_at": anchored_at.astimezone(UTC).isoformat(),
            },
            sort_keys=True,
        )
        + "\n"
    )


def anchor_chains(directory: Path | None = None) -> list[ChainHead]:
    """Append the head of every chain to its anchor file; returns the heads written."""
    directory = directory or anchor_directory()
    directory.mkdir(parents=True, exist_ok=True)
    now = timezone.now()
    heads = chain_heads()
    for head in heads:
        _append_line(directory / f"{head.chain}.jsonl", anchor_line(head, now))
    for anchored in hooks.CHAINS_ANCHORED.answers():  # statefiling sends them to the state registries
        anchored(heads)
    return heads


def check_against_registries(organization_id: int | None = None) -> RegistryCheck:
    """Every chain head the state registries hold is still in the chain (statefiling answers:
    the registry's copy is beyond the reach of whoever can write the database and the anchors)."""
    return hooks.REGISTRY_CHECK(organization_id)


def registry_anchors(organization_id: int | None, chain: str, seq: int) -> list[Anchor]:
    """Of each state registry the organization files with, the first head of `chain` it holds at
    or after event `seq`, each an Anchor naming its registry (statefiling answers, over the
    network: one request a registry, answered by one row of its index). Beyond the reach of
    whoever can write the database and the anchor files alike."""
    return hooks.REGISTRY_ANCHORS(organization_id, chain, seq)


def read_anchors(directory: Path | None = None) -> dict[str, list[Anchor]]:
    """Every anchor found, by chain, in file order. Raises AnchorFileError on a bad line."""
    directory = directory or anchor_directory()
    found: dict[str, list[Anchor]] = {}
    if not directory.is_dir():
        return found
    for path in sorted(directory.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for number, text in enumerate(lines, start=1):
                if text.strip():
                    anchor = _parse(text, f"{path}:{number}")
                    found.setdefault(anchor.chain, []).append(anchor)
    return found


def _parse(text: str, source: str) -> Anchor:
    try:
        data = json.loads(text)
        anchor = Anchor(
            chain=str(data["chain"]),
            organization_id=data.get("organization_id"),
            seq=int(data["seq"]),
            hash=str(data["hash"]),
            anchored_at=str(data.get("anchored_at", "")),
            source=source,
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise AnchorFileError(f"{source} is not an anchor line ({exc})") from exc
    if anchor.seq < 1 or len(anchor.hash) != 64:
        raise AnchorFileError(f"{source} is not an anchor line (seq {anchor.seq}, hash {anchor.hash!r})")
    return anchor
