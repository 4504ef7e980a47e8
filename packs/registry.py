"""The packs, one line each: the jurisdiction code (`Site.jurisdiction`) and the pack.

Adding a pack is its folder (`packs/<name>/__init__.py` with `PACK = Pack(...)`) plus one import
and one line here, and its code in `cardroom.models.Jurisdiction` (with a migration). The packs
are imported by name, not looked up by a string: the import graph (`lint-imports`) sees them.
"""

from . import nd, ny, wa_bj, wa_hb
from .base import Pack

PACKS: dict[str, Pack] = {
    "ND": nd.PACK,
    "WA-HB": wa_hb.PACK,
    "WA-BJ": wa_bj.PACK,
    "NY": ny.PACK,
}


def get_pack(code: str) -> Pack:
    if code not in PACKS:
        raise LookupError(f"No jurisdiction pack {code!r}")
    return PACKS[code]


def all_packs() -> list[Pack]:
    return list(PACKS.values())
