from django import forms

from cardroom.models import Table
from core.forms import BootstrapMixin
from packs import pack_for

# The table settings the game page edits: what an approval fixes or the internal controls document.
SETTINGS = (
    "decks", "dealt_from", "dealer_hits_soft_17", "split_pairs", "double_on", "double_down", "surrender",
    "insurance_allowed", "blackjack_payout", "payout_rounding",
)  # fmt: skip


class TableSettingsForm(BootstrapMixin, forms.ModelForm):
    class Meta:
        model = Table
        fields = list(SETTINGS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Only the settings the table's site's pack has (packs: `Pack.table_options`).
        mine = set(pack_for(self.instance.site).table_fields())
        for name in [name for name in self.fields if name not in mine]:
            del self.fields[name]
