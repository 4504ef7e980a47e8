"""The packs, one line each: the jurisdiction code (`Site.jurisdiction`) and the pack's folder.

Adding a pack is its folder (`packs/<name>/__init__.py` with `PACK = Pack(...)`) plus one line
here and its code in `cardroom.models.Jurisdiction` (with a migration).
"""

from importlib import import_module

from .base import Pack

PACK_MODULES = {
    "ND": "packs.nd",
    "WA-HB": "packs.wa_hb",
    "WA-BJ": "packs.wa_bj",
    "NY": "packs.ny",
}

_PACKS: dict[str, Pack] = {}


def get_pack(code: str) -> Pack:
    if code not in _PACKS:
        if code not in PACK_MODULES:
            raise LookupError(f"No jurisdiction pack {code!r}")
        _PACKS[code] = import_module(PACK_MODULES[code]).PACK
    return _PACKS[code]


def all_packs() -> list[Pack]:
    return [get_pack(code) for code in PACK_MODULES]
