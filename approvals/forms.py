from django import forms

from cardroom.models import Table
from core.forms import BootstrapMixin

# The table settings the game page edits: what an approval fixes or the internal controls document.
SETTINGS = (
    "decks", "dealt_from", "dealer_hits_soft_17", "split_pairs", "double_on", "double_down", "surrender",
    "insurance_allowed", "blackjack_payout", "payout_rounding",
)  # fmt: skip


class TableSettingsForm(BootstrapMixin, forms.ModelForm):
    class Meta:
        model = Table
        fields = list(SETTINGS)
