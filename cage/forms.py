"""Browser forms parse input; the services hold the rules (the same message as the API).

Quantities are taken as typed: a negative or fractional number reaches the service, which
refuses it with the words the API uses."""

from django import forms

from core.forms import BookDateField, BootstrapMixin, CentsField
from core.money import format_money
from floor.rules import house_chips

from .models import BankCount, ChipMovement, Fund, fund_choices
from .rules import CASH_VALUES_CENTS

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


def _date(**kwargs):
    return BookDateField(widget=DATE, **kwargs)


def _quantity_field(label: str, value_cents: int, group: str) -> forms.CharField:
    attrs = {
        "class": "form-control form-control-lg text-end qty",
        "inputmode": "numeric",
        "data-value-cents": value_cents,
        "data-group": group,
        "autocomplete": "off",
    }
    return forms.CharField(required=False, label=label, widget=forms.TextInput(attrs=attrs))


class GridMixin:
    """Quantity inputs per denomination: `<prefix>_<value_cents>` fields, read back as lines."""

    def add_grid(self, prefix: str, values, group: str | None = None):
        names = []
        for value in values:
            name = f"{prefix}_{value}"
            self.fields[name] = _quantity_field(format_money(value), value, group or prefix)
            names.append(name)
        return names

    def lines(self, prefix: str, values) -> list[dict]:
        rows = []
        for value in values:
            raw = (self.cleaned_data.get(f"{prefix}_{value}") or "").strip()
            if raw:
                rows.append({"value_cents": value, "quantity": raw})
        return rows


RECENT_BANK_COUNTS = 30  # the bank page's list of counts, and the counts its form may correct


class BankCountForm(GridMixin, BootstrapMixin, forms.Form):
    gaming_date = _date()
    kind = forms.ChoiceField(choices=BankCount.Kind.choices)
    corrects = forms.ModelChoiceField(BankCount.objects.none(), required=False, label="Corrects the count")
    reason = forms.CharField(required=False, label="Reason for the correction")

    def __init__(self, *args, site=None, chip_values=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.chip_values = list(chip_values)
        # House control: the page offers the newest counts it lists (RECENT_BANK_COUNTS), not
        # every count ever (issue 18: the list grew with the cage's history); older ones are
        # corrected through the API. The site in each choice's label comes with the rows.
        recent = BankCount.objects.filter(site=site).order_by("-gaming_date", "-counted_at", "-pk")
        self.fields["corrects"].queryset = (
            BankCount.objects.filter(pk__in=recent.values("pk")[:RECENT_BANK_COUNTS], correction__isnull=True)
            .select_related("site")
            .order_by("-pk")
        )
        self.fields["corrects"].error_messages["invalid_choice"] = (
            f"House control: the bank page corrects one of the {RECENT_BANK_COUNTS} newest counts it lists; "
            "correct an older count through the API."
        )
        self.cash_fields = self.add_grid("cash", CASH_VALUES_CENTS)
        self.chip_fields = self.add_grid("chip", self.chip_values)

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "gaming_date": data["gaming_date"],
            "kind": data["kind"],
            "corrects": data["corrects"],
            "reason": data["reason"],
            "cash": self.lines("cash", CASH_VALUES_CENTS),
            "chips": self.lines("chip", self.chip_values),
        }


class IouForm(BootstrapMixin, forms.Form):
    gaming_date = _date()
    source = forms.ChoiceField(choices=Fund.choices, initial=Fund.BANK)
    destination = forms.ChoiceField(choices=Fund.choices, initial=Fund.RESERVE)
    amount_cents = CentsField(label="Amount ($)")
    note = forms.CharField(required=False)

    def __init__(self, *args, site=None, **kwargs):
        super().__init__(*args, **kwargs)
        if site is not None:  # the funds the site's pack keeps (cage.rules.fund_choices)
            for name in ("source", "destination"):
                self.fields[name].choices = fund_choices(site)


class RepayForm(BootstrapMixin, forms.Form):
    amount_cents = CentsField(label="Amount ($, blank: all outstanding)", required=False)
    gaming_date = _date(required=False, label="Gaming date (blank: today's)")


class ChipLinesForm(GridMixin, BootstrapMixin, forms.Form):
    gaming_date = _date()

    def __init__(self, *args, chip_values=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.chip_values = list(chip_values)
        self.chip_fields = self.add_grid("chip", self.chip_values)

    def service_kwargs(self) -> dict:
        return {"gaming_date": self.cleaned_data["gaming_date"], "chips": self.lines("chip", self.chip_values)}


class TipRedeemForm(BootstrapMixin, forms.Form):
    dealer = forms.ModelChoiceField(queryset=None, label="Dealer at the window")

    def __init__(self, *args, dealers=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dealer"].queryset = dealers


class TipPolicyForm(BootstrapMixin, forms.Form):
    pooled = forms.BooleanField(required=False, label="Tips are pooled")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    effective_on = _date()


class DepositForm(BootstrapMixin, forms.Form):
    amount_cents = CentsField(label="Amount deposited ($)")
    deposited_on = _date()
    reference = forms.CharField(required=False, label="Deposit slip / reference")


class DepositCorrectionForm(BootstrapMixin, forms.Form):
    """A correction of a recorded deposit: each figure left blank stays as it stands (the service
    refuses a correction that changes nothing, or gives no reason, in the API's words)."""

    amount_cents = CentsField(label="Amount deposited ($, blank: unchanged)", required=False)
    deposited_on = _date(required=False, label="Date deposited (blank: unchanged)")
    reference = forms.CharField(required=False, label="Deposit slip / reference (blank: unchanged)")
    reason = forms.CharField(required=False, label="Reason for the correction")

    def __init__(self, *args, **kwargs):
        # Its own ids: a deposits page shows it beside the deposit form's fields of the same names.
        super().__init__(*args, auto_id="id_correct_%s", **kwargs)

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "amount_cents": data["amount_cents"],
            "deposited_on": data["deposited_on"],
            "reference": data["reference"].strip() or None,
            "reason": data["reason"],
        }


class VerifyForm(BootstrapMixin, forms.Form):
    statement_amount_cents = CentsField(label="Amount on the statement ($)")
    statement_date = _date()
    note = forms.CharField(required=False, label="Explanation of a difference")


class ChipMovementForm(GridMixin, BootstrapMixin, forms.Form):
    kind = forms.ChoiceField(choices=ChipMovement.Kind.choices)
    occurred_on = _date(label="Date")
    reference = forms.CharField(label="Invoice, or witness of destruction")
    note = forms.CharField(required=False)

    def __init__(self, *args, chip_values=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.chip_values = list(chip_values)
        self.chip_fields = self.add_grid("chip", self.chip_values)


class InventoryCountForm(GridMixin, BootstrapMixin, forms.Form):
    """One row of chip quantities per location: each site's bank and trays, and storage."""

    counted_on = _date()
    note = forms.CharField(required=False)

    def __init__(self, *args, sites=(), chip_values=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.chip_values = list(chip_values)
        # A fees site holds no house chips (floor.rules.house_chips): no bank or trays of it.
        sites = [s for s in sites if house_chips(s)]
        self.locations = [("bank", s, f"{s.name}: chip bank") for s in sites]
        self.locations += [("trays", s, f"{s.name}: table trays") for s in sites]
        self.locations += [("storage", None, "Storage")]
        self.rows = []
        for location, site, label in self.locations:
            prefix = f"{location}_{site.pk if site else 0}"
            self.rows.append((label, self.add_grid(prefix, self.chip_values, group="count")))

    def service_kwargs(self) -> dict:
        locations = []
        for location, site, _ in self.locations:
            chips = self.lines(f"{location}_{site.pk if site else 0}", self.chip_values)
            if chips:
                locations.append({"location": location, "site": site.pk if site else None, "chips": chips})
        data = self.cleaned_data
        return {"counted_on": data["counted_on"], "note": data["note"], "locations": locations}
