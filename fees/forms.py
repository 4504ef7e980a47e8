"""The browser form for a fee collection. It parses; fees.services holds every rule, so the page
shows the API's message for the same mistake."""

from django import forms

from core.forms import BootstrapMixin, CentsField

from . import rules
from .models import FeeBasis


class FeeForm(BootstrapMixin, forms.Form):
    table = forms.ModelChoiceField(queryset=None, empty_label=None)
    basis = forms.ChoiceField(choices=FeeBasis.choices)
    period_minutes = forms.IntegerField(
        label="Period (minutes)", min_value=1, max_value=rules.MAX_PERIOD_MINUTES, initial=30,
        help_text="WAC 230-40-125(1): fees only on a time basis.",
    )
    rate_cents = CentsField(label="Rate per seat or player ($)")
    count = forms.IntegerField(label="Seats or players charged", min_value=1, max_value=rules.MAX_COUNT)
    amount_cents = CentsField(label="Amount collected ($)", help_text="The rate times the seats or players.")

    def __init__(self, *args, tables=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = tables
