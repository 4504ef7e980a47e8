from django import forms

from cardroom.models import Table
from core.forms import BookDateField, BootstrapMixin
from core.limits import MAX_TEXT_LENGTH
from packs import pack_for

from . import rules

# The table settings the game page edits: what an approval fixes or the internal controls document.
SETTINGS = (
    "decks", "dealt_from", "dealer_hits_soft_17", "split_pairs", "resplit_allowed", "split_aces_one_card",
    "double_on", "double_after_split", "double_down", "surrender", "insurance_allowed", "even_money_offered",
    "blackjack_payout", "payout_rounding",
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


class WrittenProcedureForm(BootstrapMixin, forms.Form):
    """A new version of a written procedure; `kinds`: the kinds the organization's sites' law states.
    The service (approvals.services.record_written_procedure) judges it, as the API's."""

    kind = forms.ChoiceField(label="Procedure")
    text = forms.CharField(
        label="Procedure as adopted (or its summary)",
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=MAX_TEXT_LENGTH,
    )
    document_reference = forms.CharField(label="Document reference", required=False, max_length=rules.MAX_NAME_LENGTH)
    effective_on = BookDateField(label="In force from", widget=forms.DateInput(attrs={"type": "date"}))
    reshuffle_idle_minutes = forms.IntegerField(
        label="Reshuffle after this many idle minutes (shuffling and cutting)", required=False
    )

    def __init__(self, *args, kinds, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = kinds
