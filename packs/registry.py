"""The packs, one line each: the jurisdiction code (`Site.jurisdiction`) and the pack.

Adding a pack is its folder (`packs/<name>/__init__.py` with `PACK = Pack(...)`) plus one import
and one line here: a site's jurisdiction choices are the registry's (`cardroom.models.jurisdiction_choices`,
the `jurisdictions` hook), validated by the model, its forms and the API, with no migration. The packs
are imported by name, not looked up by a string: the import graph (`lint-imports`) sees them.

The table itself, `PACKS`, and its lookups (`get_pack`, `all_packs`, `pack_of`) are
`packs.base`'s, below the packs (which import `packs.base`); this module, above them, fills it
when `packs` loads, so no module of the app imports one that imports it.
"""

from .base import PACKS
from .nd import PACK as ND
from .ny import PACK as NY
from .wa_bj import PACK as WA_BJ
from .wa_hb import PACK as WA_HB

PACKS.update(
    {
        "ND": ND,
        "WA-HB": WA_HB,
        "WA-BJ": WA_BJ,
        "NY": NY,
    }
)
