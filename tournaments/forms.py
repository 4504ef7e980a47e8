"""Browser forms for tournaments. They parse; tournaments.services holds every rule, so the
page shows the API's message for the same mistake."""

from django import forms

from core.forms import BookDateField, BootstrapMixin, CentsField, PaperMomentField
from core.limits import MAX_TEXT_LENGTH

from . import rules
from .models import FeeKind, PrizeKind


def _chips(label, required=True, **kwargs):
    return forms.IntegerField(
        label=label, required=required, min_value=1, max_value=rules.MAX_TOURNAMENT_CHIPS, **kwargs
    )


class TournamentForm(BootstrapMixin, forms.Form):
    name = forms.CharField(max_length=rules.MAX_NAME_LENGTH)
    gaming_date = BookDateField(widget=forms.DateInput(attrs={"type": "date"}))
    entry_fee_cents = CentsField(
        label="Entry fee ($)",
        help_text="At most the cap of the site's law per player with rebuys and add-ons.",  # the view states it
    )
    chips_per_entry = _chips("Chips for the entry fee")
    rebuy_fee_cents = CentsField(
        label="Rebuy fee ($)", required=False, help_text="Blank: no rebuys. At most the entry fee."
    )
    chips_per_rebuy = _chips("Chips for a rebuy", required=False)
    add_on_fee_cents = CentsField(
        label="Add-on fee ($)", required=False, help_text="Blank: no add-ons. At most the entry fee."
    )
    chips_per_add_on = _chips("Chips for an add-on", required=False)
    betting_spaces = forms.TypedChoiceField(choices=[(1, "1"), (2, "2")], coerce=int, initial=1)
    rotating_button = forms.BooleanField(
        required=False, label="Rotating button (moves clockwise one position after each hand)"
    )
    length_of_play = forms.CharField(
        max_length=rules.MAX_NAME_LENGTH, help_text="The time, or number of shoes or hands."
    )
    minimum_bet_chips = _chips("Minimum bet (chips)")
    maximum_bet_chips = _chips("Maximum bet (chips)", required=False)
    advancement = forms.CharField(
        required=False,
        max_length=MAX_TEXT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Who advances from each preliminary round.",
    )
    prizes_offered = forms.CharField(max_length=MAX_TEXT_LENGTH, widget=forms.Textarea(attrs={"rows": 2}))
    announced_at = PaperMomentField("Announced at")


def _found_late_reason():
    """The reason a fee or prize found after its tournament's day's books closed needs (services._found_late)."""
    return forms.CharField(
        label="Reason, if found after the day's books closed",
        required=False,
        max_length=MAX_TEXT_LENGTH,
        help_text="It counts on the day entered and is listed on the closed day as found later.",
    )


class EntryForm(BootstrapMixin, forms.Form):
    player_name = forms.CharField(label="Player's name", max_length=rules.MAX_NAME_LENGTH)
    collected_at = PaperMomentField("Collected at")
    reason = _found_late_reason()

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "entry_%s")  # ids apart from the other forms of the page
        super().__init__(*args, **kwargs)


class BuyForm(BootstrapMixin, forms.Form):
    """A rebuy or add-on for a player on the register."""

    kind = forms.ChoiceField(choices=[(FeeKind.REBUY, "Rebuy"), (FeeKind.ADD_ON, "Add-on")])
    player = forms.ModelChoiceField(queryset=None)
    collected_at = PaperMomentField("Collected at")
    reason = _found_late_reason()

    def __init__(self, *args, players, **kwargs):
        kwargs.setdefault("auto_id", "buy_%s")  # ids apart from the other forms of the page
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players


class PrizeForm(BootstrapMixin, forms.Form):
    player = forms.ModelChoiceField(queryset=None)
    round_name = forms.CharField(label="Round", max_length=rules.MAX_NAME_LENGTH, initial="Championship round")
    kind = forms.ChoiceField(choices=PrizeKind.choices)
    amount_cents = CentsField(label="Value ($)")
    description = forms.CharField(required=False, max_length=MAX_TEXT_LENGTH, help_text="What the merchandise is.")
    split = forms.BooleanField(required=False, label="The last two players agreed to split the prize")
    awarded_at = PaperMomentField("Awarded at")
    reason = _found_late_reason()

    def __init__(self, *args, players, **kwargs):
        kwargs.setdefault("auto_id", "prize_%s")  # ids apart from the other forms of the page
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players


class VoidForm(BootstrapMixin, forms.Form):
    """A void of a fee or a prize: its reason, and when it was voided (blank: now)."""

    reason = forms.CharField(max_length=MAX_TEXT_LENGTH)
    voided_at = PaperMomentField("Voided at")
