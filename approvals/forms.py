from django import forms

from cardroom.forms import offer_only_the_documented_values
from cardroom.models import Table
from core.forms import BookDateField, BootstrapMixin
from core.limits import MAX_TEXT_LENGTH
from packs import pack_for

from . import rules
from .checks import settable_table_values
from .models import GameApproval, PayTable

STANDARD_GAME = "Standard house-banked blackjack (no approved game)"

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
        # The settings the internal controls in effect document, alone (with the table's own).
        offer_only_the_documented_values(self, settable_table_values(self.instance))

    def _post_clean(self):
        """No model validation here: the services judge the settings (cardroom.services.update_table;
        approvals.services.link_table_game, where the table moves to another game in the same step,
        so the settings are judged against the new game's conditions, not the old one's)."""


class TableGameForm(BootstrapMixin, forms.Form):
    """The game a table offers (an approved game of the organization under the site's law, or
    standard blackjack), with the pay tables it posts and the approved shuffler it uses. The
    service (approvals.services.link_table_game) judges it, with the settings changed beside it."""

    approval = forms.ModelChoiceField(
        queryset=GameApproval.objects.none(), required=False, label="Game offered", empty_label=STANDARD_GAME
    )
    blackjack_pay_table = forms.ModelChoiceField(
        queryset=PayTable.objects.none(), required=False, label="Blackjack pay table"
    )
    side_bet_pay_table = forms.ModelChoiceField(
        queryset=PayTable.objects.none(), required=False, label="Side bet pay table"
    )
    shuffler_model = forms.CharField(
        required=False, max_length=rules.MAX_SHORT_TEXT, label="Approved shuffler model (a shuffler table)"
    )

    def __init__(self, *args, table, link, **kwargs):
        current = {
            "approval": link.approval_id if link else None,
            "blackjack_pay_table": link.blackjack_pay_table_id if link else None,
            "side_bet_pay_table": link.side_bet_pay_table_id if link else None,
            "shuffler_model": link.shuffler_model if link else "",
        }
        super().__init__(*args, initial=current, **kwargs)
        self.current = current
        approvals = GameApproval.objects.filter(
            organization_id=table.site.organization_id, jurisdiction=table.site.jurisdiction
        ).order_by("game_name", "approved_on")
        self.fields["approval"].queryset = approvals
        pay_tables = (
            PayTable.objects.filter(approval__in=approvals).select_related("approval").order_by("approval", "id")
        )
        for name, choices in (("blackjack_pay_table", pay_tables.filter(side_bet="")),
                              ("side_bet_pay_table", pay_tables.exclude(side_bet=""))):  # fmt: skip
            self.fields[name].queryset = choices
            self.fields[name].label_from_instance = lambda pay_table: f"{pay_table.approval.game_name}: {pay_table}"

    def changed(self) -> bool:
        """Whether the game, a pay table or the shuffler differs from the table's current link."""
        data = self.cleaned_data
        given = {name: getattr(data[name], "pk", data[name]) for name in ("approval", "blackjack_pay_table",
                                                                          "side_bet_pay_table")}  # fmt: skip
        return given != {k: self.current[k] for k in given} or data["shuffler_model"] != self.current["shuffler_model"]


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
