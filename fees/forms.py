"""The browser form for a fee collection. It parses; fees.services holds every rule, so the page
shows the API's message for the same mistake."""

from django import forms

from core.forms import BootstrapMixin, CentsField, PaperMomentField
from core.limits import MAX_TEXT_LENGTH

from . import rules
from .models import FeeBasis


class FeeForm(BootstrapMixin, forms.Form):
    table = forms.ModelChoiceField(queryset=None, empty_label=None)
    basis = forms.ChoiceField(choices=FeeBasis.choices)
    period_minutes = forms.IntegerField(
        label="Period (minutes)",
        min_value=1,
        max_value=rules.MAX_PERIOD_MINUTES,
        initial=30,
        help_text="Fees only on a time basis.",  # cited at the site's pack (`__init__`)
    )
    rate_cents = CentsField(label="Rate per seat or player ($)")
    count = forms.IntegerField(label="Seats or players charged", min_value=1, max_value=rules.MAX_COUNT)
    amount_cents = CentsField(label="Amount collected ($)", help_text="The rate times the seats or players.")
    collected_at = PaperMomentField("Collected at")

    def __init__(self, *args, tables=None, site=None, **kwargs):
        super().__init__(*args, **kwargs)
        if site is not None:
            self.fields["period_minutes"].help_text = f"{rules.TABLE_FEES.at(site)}: fees only on a time basis."
        self.fields["table"].queryset = tables


class VoidForm(forms.Form):
    """A void of a fee recorded by mistake: its reason, and when it was voided (blank: now). Drawn
    at its row by templates/cardroom/_void_form.html."""

    reason = forms.CharField(max_length=MAX_TEXT_LENGTH)
    voided_at = PaperMomentField("Voided at")
