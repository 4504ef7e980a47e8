"""The browser forms for a fee collection and a games-of-chance session. They parse; fees.services
holds every rule, so the page shows the API's message for the same mistake."""

from django import forms

from core.forms import (
    BookDateField,
    BootstrapMixin,
    CentsField,
    LocalMomentField,
    NamesTheRule,
    PaperMomentField,
    say_when_blank,
)
from core.limits import MAX_TEXT_LENGTH
from core.rules import HOUSE_CONTROL

from . import rules, services
from .models import FeeBasis, GameSession


class RateField(CentsField):
    """The rate per seat or player per period, in dollars. A rate the page cannot take as an amount
    (a word, a fraction of a cent, beyond any amount) is refused in the service's words for a rate:
    its bounds and their rule (`services.rate_bounds`, as the pit terminal says it), not the money
    field's bare "Enter an amount"; a rate in money out of those bounds reaches the service, which
    refuses it in the same words."""

    def to_python(self, value):
        try:
            return super().to_python(value)
        except forms.ValidationError as refused:
            not_money = isinstance(refused.__cause__, ValueError)
            typed = str(value).strip()
            raise forms.ValidationError(
                f'{services.rate_bounds()}; got "{typed}"'
                + (", not dollars and cents (for example 2.50)." if not_money else ".")
            ) from None


class FeeForm(BootstrapMixin, forms.Form):
    table = forms.ModelChoiceField(queryset=None, empty_label=None)
    basis = forms.ChoiceField(choices=FeeBasis.choices)
    period_minutes = forms.IntegerField(
        label="Period (minutes)",
        initial=30,
        help_text="Fees only on a time basis.",  # cited at the site's pack (`__init__`)
    )
    rate_cents = RateField(label="Rate per seat or player ($)")
    # bounds are the service's (one message for the browser and the API, citing its rule)
    count = forms.IntegerField(label="Seats or players charged")
    amount_cents = CentsField(
        label="Amount collected ($)",
        required=False,
        help_text="Blank: the rate times the seats or players, worked out. Given, it must equal that.",
    )
    collected_at = PaperMomentField("Collected at")

    def __init__(self, *args, tables=None, site=None, **kwargs):
        super().__init__(*args, **kwargs)
        if site is not None:
            fees_rule = rules.TABLE_FEES.at(site)
            self.fields["period_minutes"].help_text = f"{fees_rule}: fees only on a time basis."
            say_when_blank(
                self,
                {
                    "table": f"{fees_rule}: choose the table the fee was collected at.",
                    "basis": f"{fees_rule}: a fee is charged per seat or per player per period; choose which.",
                    "period_minutes": f"{fees_rule}: fees only on a time basis; give the period in minutes.",
                    "rate_cents": f"{fees_rule}: give the rate per seat or player per period.",
                    "count": f"{fees_rule}: give the number of seats or players charged.",
                },
            )
            # Another site's table (or one no longer active) is not among this form's: named by the rule too.
            self.fields["table"].error_messages["invalid_choice"] = (
                f"{HOUSE_CONTROL}: a fee is collected at one of {site}'s active tables; choose one of them."
            )
        self.fields["table"].queryset = tables
        self.fields["amount_cents"].widget.attrs["placeholder"] = "rate × count"  # fees/fee_amount.js works it out


class FeeCountForm(BootstrapMixin, forms.Form):
    """The fee cash of a gaming day counted by two people: the one entering it and the witness
    (fees.services.count_fees holds the rules: two people of the organization, the bounds, the
    closed books, not before the day's last fee)."""

    gaming_date = BookDateField(label="Gaming day counted", widget=forms.DateInput(attrs={"type": "date"}))
    counted_cents = CentsField(label="Fee cash counted ($)")
    witness = forms.ModelChoiceField(
        queryset=None,
        label="Counted with (the second person)",
        error_messages={"invalid_choice": "House control: the witness is someone of the organization at this site."},
    )
    witness_pin = forms.CharField(
        label="The second person's signing PIN",
        max_length=32,
        widget=forms.PasswordInput(attrs={"autocomplete": "off", "inputmode": "numeric"}),
    )  # the witness types it: a name alone attests nothing (the page's note says so)
    counted_at = PaperMomentField("Counted at")

    def __init__(self, *args, witnesses=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["witness"].queryset = witnesses
        say_when_blank(  # the fee cash count is a house control at every site (fees.services.count_fees)
            self,
            {
                "gaming_date": f"{HOUSE_CONTROL}: give the gaming day whose fee cash is counted.",
                "counted_cents": f"{HOUSE_CONTROL}: give the fee cash counted.",
                "witness": f"{HOUSE_CONTROL}: the fee cash is counted by two people; choose the second.",
                "witness_pin": f"{HOUSE_CONTROL}: the second person confirms the count with their signing PIN.",
            },
        )


class VoidForm(NamesTheRule, forms.Form):
    """A void of a fee recorded by mistake: its reason, and when it was voided (blank: now). Drawn
    at its row by templates/cardroom/_void_form.html."""

    reason = forms.CharField(
        max_length=MAX_TEXT_LENGTH, error_messages={"required": f"{HOUSE_CONTROL}: a void states its reason."}
    )
    voided_at = PaperMomentField("Voided at")


class SessionVoidForm(NamesTheRule, forms.Form):
    """A void of a session recorded that did not take place: its reason (fees.services.void_session;
    a blank reason reaches it and comes back in its words). Drawn at its row by
    templates/cardroom/_void_form.html, without a paper time: the void is a correction of the record."""

    reason = forms.CharField(required=False)


class GameSessionForm(BootstrapMixin, forms.Form):
    """A games-of-chance session, or a correction of one (`corrects`: a session of the site,
    carried by the page's Correct link). The licence's presence and length, the times' order and
    the amounts' bounds are the service's rules (fees.services.record_session), so a negative amount
    or a licence too long reaches it and comes back with its words; a blank one is said with the
    other blank fields, in the service's words (`rules.SESSION_LICENCE`)."""

    licence_number = forms.CharField(label="Licence number")
    started_at = LocalMomentField("Started at")  # from the session's sheet
    ended_at = LocalMomentField("Ended at")
    receipts_cents = CentsField(label="Receipts ($)", help_text="The organization's receipts for the session.")
    prizes_cents = CentsField(label="Prizes paid ($)")
    corrects = forms.ModelChoiceField(
        queryset=GameSession.objects.none(),
        required=False,
        widget=forms.HiddenInput,
        error_messages={
            "invalid_choice": f"{HOUSE_CONTROL}: the session to correct is not one of this site's sessions."
        },
    )

    def __init__(self, *args, site=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["corrects"].queryset = GameSession.objects.filter(site=site)
        say_when_blank(  # the session's record is the product's (a house control: fees.rules)
            self,
            {
                "licence_number": rules.SESSION_LICENCE,
                "started_at": f"{HOUSE_CONTROL}: a session's record gives when it started, from its sheet.",
                "ended_at": f"{HOUSE_CONTROL}: a session's record gives when it ended, from its sheet.",
                "receipts_cents": f"{HOUSE_CONTROL}: a session's record gives the organization's receipts (0 if none).",
                "prizes_cents": f"{HOUSE_CONTROL}: a session's record gives the prizes paid (0 if none).",
            },
        )


class SessionDayForm(NamesTheRule, forms.Form):
    """The gaming day whose sessions the page lists (`?date=`; blank or refused: today's)."""

    date = BookDateField(
        label="Gaming day", required=False, widget=forms.DateInput(attrs={"type": "date", "class": "form-control"})
    )
