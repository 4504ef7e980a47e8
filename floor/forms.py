"""Browser forms for table chip custody. They parse; floor.services holds every rule, so
a field the service checks is optional here and its message is the service's (the API's)."""

import re

from django import forms
from django.utils import timezone

from cardroom.models import ChipDenomination, Employee, Role, Table
from core import limits
from core.forms import BootstrapMixin, NamesTheRule, say_when_blank
from core.money import cents_to_decimal, format_money

from . import rules
from .models import Slip, SlipKind
from .queries import shifts_running

_ZERO_DOLLARS = re.compile(r"\$?[0,]*(\.0*)?")  # a box left at zero is no line


class ChipGridMixin:
    """One box per chip value of the organization, entered either as chip counts
    (`qty_<value_cents>`) or as dollar amounts (`amount_<value_cents>`): the `entry` toggle says
    which. `chip_input()` gives the service's input, {"chips": [...]} or {"amounts": [...]}; a
    blank or zero box is no line; the service converts dollars to chips (with Decimal) and
    refuses an amount that is not a multiple of its chip. Its errors land on `chips`/`amounts`.
    A box the form itself refuses (a count that is no whole number, an amount too long to be
    dollars) is refused inline in the service's words, citing the rule of the record the grid is
    on (`citation`, at the form's site): the same message as the API's."""

    ENTRY_CHOICES = [("chips", "Chip counts"), ("amounts", "Dollar amounts")]
    MAX_AMOUNT_LENGTH = 20  # "$1,000,000.00" and then some: a longer box is no amount of chips a tray holds

    def add_chip_fields(self, organization_id: int, citation: str) -> None:
        self.denominations = list(ChipDenomination.objects.filter(organization_id=organization_id, active=True))
        self.fields["chips"] = forms.CharField(required=False, widget=forms.HiddenInput)
        self.fields["amounts"] = forms.CharField(required=False, widget=forms.HiddenInput)
        self.fields["entry"] = forms.ChoiceField(choices=self.ENTRY_CHOICES, required=False, initial="chips")
        by_amount = self.entry_mode == "amounts"
        for chip in self.denominations:
            # No bound here: a negative count goes to the service, which refuses it citing the
            # record's rule, in the API's words (the browser's box still steps from 0).
            self.fields[self.chip_field_name(chip)] = forms.IntegerField(
                label=format_money(chip.value_cents),
                required=False,
                error_messages={"invalid": rules.not_a_chip_count(citation, chip)},
                widget=forms.NumberInput(attrs=self._box_attrs(chip, "chip-qty", "numeric", hidden=by_amount)),
            )
            self.fields[self.amount_field_name(chip)] = forms.CharField(
                label=f"{format_money(chip.value_cents)} in dollars",
                required=False,
                max_length=self.MAX_AMOUNT_LENGTH,
                # Django fills the length into this message (%-formatting): a "%" in it is kept as one.
                error_messages={"max_length": rules.not_an_amount(citation, chip).replace("%", "%%")},
                widget=forms.TextInput(attrs=self._box_attrs(chip, "chip-amount", "decimal", hidden=not by_amount)),
            )

    @staticmethod
    def _box_attrs(chip: ChipDenomination, css: str, inputmode: str, hidden: bool) -> dict:
        attrs = {
            "class": f"form-control form-control-lg {css} text-end",
            "inputmode": inputmode,
            "data-value-cents": chip.value_cents,
            "autocomplete": "off",
        }
        if css == "chip-qty":
            attrs.update({"min": "0", "step": "1"})
        else:
            attrs["placeholder"] = "$"
        if hidden:
            attrs["hidden"] = True
        return attrs

    @property
    def entry_mode(self) -> str:
        """'chips' or 'amounts': as posted, otherwise chip counts."""
        mode = self.data.get("entry") if self.is_bound else None
        return "amounts" if mode == "amounts" else "chips"

    @staticmethod
    def chip_field_name(chip: ChipDenomination) -> str:
        return f"qty_{chip.value_cents}"

    @staticmethod
    def amount_field_name(chip: ChipDenomination) -> str:
        return f"amount_{chip.value_cents}"

    def chip_rows(self, previous: dict[int, int] | None = None) -> list[dict]:
        """The grid's rows in ascending value: the chip, its two boxes, the previous count's quantity."""
        previous = previous or {}
        return [
            {
                "chip": chip,
                "qty": self[self.chip_field_name(chip)],
                "amount": self[self.amount_field_name(chip)],
                "previous": previous.get(chip.value_cents),
            }
            for chip in self.denominations
        ]

    def focus(self, value_cents: int | None) -> None:
        """Open the page with the cursor in the box of the chip worth `value_cents` (the one the
        person most likely types first), in the mode shown: a tap saved, nothing typed for them.
        No box of that value (none given, or the chip no longer in use): no cursor placed."""
        chip = next((chip for chip in self.denominations if chip.value_cents == value_cents), None)
        if chip is None:
            return
        name = self.amount_field_name(chip) if self.entry_mode == "amounts" else self.chip_field_name(chip)
        self.fields[name].widget.attrs["autofocus"] = True

    def prefill(self, quantities: dict[int, int]) -> None:
        """Start the grid from a previous count ({value_cents: quantity}), in both entry modes."""
        for chip in self.denominations:
            quantity = quantities.get(chip.value_cents)
            if quantity:
                self.initial[self.chip_field_name(chip)] = quantity
                self.initial[self.amount_field_name(chip)] = f"{cents_to_decimal(quantity * chip.value_cents)}"

    def chips(self) -> list[dict]:
        lines = []
        for chip in self.denominations:
            quantity = self.cleaned_data.get(self.chip_field_name(chip))
            if quantity:
                lines.append({"denomination": chip.value_cents, "quantity": quantity})
        return lines

    def amounts(self) -> list[dict]:
        lines = []
        for chip in self.denominations:
            amount = (self.cleaned_data.get(self.amount_field_name(chip)) or "").strip()
            if amount and not _ZERO_DOLLARS.fullmatch(amount):
                lines.append({"denomination": chip.value_cents, "amount": amount})
        return lines

    def chip_input(self, optional: bool = False) -> dict:
        """The service's keyword for the chips, in the mode entered; with `optional`, nothing
        when every box is blank (a dealer change without a tray count)."""
        key = self.entry_mode
        lines = self.amounts() if key == "amounts" else self.chips()
        return {} if optional and not lines else {key: lines}


def moment_field(label: str) -> forms.DateTimeField:
    """When a record happened, from the paper (blank: now), in the site's local time (the
    floor pages activate it); the service checks it (core.moments)."""
    return forms.DateTimeField(
        required=False,
        label=label,
        help_text="From the paper form, in the site's local time; leave blank for now.",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
    )


class ActionForm(forms.Form):
    """A button with nothing to parse: carries the service's errors back to the page."""


class CarryItemsForm(NamesTheRule, forms.Form):
    """Open items of the day (their keys) carried past the close with one reason; the service
    checks the keys, the reason and who carries (floor.services.carry_open_items)."""

    items = forms.MultipleChoiceField(required=False, widget=forms.CheckboxSelectMultiple)
    reason = forms.CharField(
        required=False,
        label="Reason for carrying the chosen items",
        widget=forms.Textarea(attrs={"rows": 2, "class": "form-control", "maxlength": 2000}),
    )

    def __init__(self, *args, keys=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["items"].choices = [(key, key) for key in keys]


class OpenGamingDayForm(BootstrapMixin, forms.Form):
    gaming_date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    opened_at = moment_field("Opened at")

    def __init__(self, *args, site, **kwargs):
        super().__init__(*args, **kwargs)
        say_when_blank(self, {"gaming_date": f"{rules.BUSINESS_DAY.at(site)}: give the gaming date to open."})


class TrayCountForm(ChipGridMixin, BootstrapMixin, forms.Form):
    """An opener or closer of a table's tray (the variance reason matters for an opener)."""

    variance_reason = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Reason for the difference from the previous count",
    )
    counted_at = moment_field("Counted at")
    same_as_last_closer = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, organization_id: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_chip_fields(organization_id, rules.TRAY_COUNT)  # the rule the tray count service cites


class DealerShiftForm(ChipGridMixin, BootstrapMixin, forms.Form):
    """Seat a dealer; the tray count at the change is optional."""

    dealer = forms.ModelChoiceField(queryset=Employee.objects.none(), required=False)
    started_at = moment_field("Seated at")

    def __init__(self, *args, site, game: str | None = None, seated: Employee | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        # The organization's people; whether they may deal at this site is the service's call.
        self.fields["dealer"].queryset = Employee.objects.filter(organization_id=site.organization_id).select_related(
            "user"
        )
        # Offered: those holding the role of the table's game (rules.TABLE_ROLE), else either.
        roles = [rules.TABLE_ROLE[game]] if game in rules.TABLE_ROLE else [Role.DEALER, Role.WHEEL_OPERATOR]
        dealers = (
            self.fields["dealer"]
            .queryset.filter(active=True, memberships__site=site, memberships__role__in=roles)
            .distinct()
        )
        if seated is not None:  # the relief is someone else: the dealer seated there is not offered
            dealers = dealers.exclude(pk=seated.pk)
        self.fields["dealer"].widget.choices = [("", "Choose the dealer")] + [
            (d.pk, f"{d.name} ({d.initials})") for d in dealers
        ]
        self.add_chip_fields(site.organization_id, rules.TRAY_COUNT)  # the change's count is a tray count

    def clean_dealer(self):
        dealer = self.cleaned_data.get("dealer")
        if dealer is None:  # left on "Choose the dealer": a rotation names who is seated
            raise forms.ValidationError(f"{rules.DEALER_SHIFTS}: choose the dealer who is seated at the table.")
        return dealer


class PrepareSlipForm(ChipGridMixin, BootstrapMixin, forms.Form):
    table = forms.ModelChoiceField(queryset=Table.objects.none(), required=False, empty_label="Choose the table")
    purpose = forms.ChoiceField(choices=Slip.Purpose.choices, initial=Slip.Purpose.REGULAR)
    number = forms.IntegerField(
        required=False,
        min_value=1,
        label="Printed slip number",
        help_text="Only for a pre-printed paper slip from a registered book; otherwise the next number is given.",
    )
    prepared_at = moment_field("Prepared at")

    cashier = forms.ModelChoiceField(
        queryset=Employee.objects.none(),
        required=False,
        empty_label="I am the cashier",
        label="Chip bank cashier (or dealer acting as cashier)",
        help_text="Whose initials the fill carries.",
    )

    def __init__(self, *args, site, open_tables, kind="fill", preparer_cashier=None, **kwargs):
        """`preparer_cashier`: whether the signed-in preparer is a chip bank cashier (may leave
        the cashier blank: "I am the cashier"); None on a shared station, where the PIN says."""
        super().__init__(*args, **kwargs)
        if kind == "fill":
            self.fields["cashier"].help_text = f"Whose initials the fill carries ({rules.SLIP_INITIALS.at(site)})."
            # Anyone of the organization parses; the service says who may initial as cashier.
            self.fields["cashier"].queryset = Employee.objects.filter(organization_id=site.organization_id)
            # Those who may initial now: the site's cashiers, and its dealers not dealing at a table.
            offered = [
                (e.pk, f"{e} ({e.initials})")
                for e in Employee.objects.filter(
                    active=True, memberships__site=site, memberships__role__in=sorted(rules.CASHIER_CAPACITY)
                )
                .exclude(pk__in=shifts_running(timezone.now()).filter(table__site=site).values("dealer_id"))
                .distinct()
                .order_by("initials")
            ]
            if preparer_cashier is False:
                # A shift manager or pit boss names the cashier: no "I am" they cannot be; the
                # site's one chip bank cashier chosen for them (a dealer may act as cashier, but
                # is named only when chosen).
                self.fields["cashier"].widget.choices = [("", "Choose the cashier")] + offered
                cashiers = Employee.objects.filter(
                    active=True, memberships__site=site, memberships__role=Role.CASHIER
                ).values_list("pk", flat=True)
                sole = set(cashiers) if len(set(cashiers)) == 1 else set()
                if sole & {pk for pk, _ in offered} and not self.is_bound:
                    self.initial.setdefault("cashier", sole.pop())
            else:  # on a shared station nobody is "I": the person initialling with their badge is
                mine = "I am the cashier" if preparer_cashier else "The badge holder below is the cashier"
                self.fields["cashier"].widget.choices = [("", mine)] + offered
        else:
            del self.fields["cashier"]
        # Every purpose parses; the site's are offered (a jar bar only where its pack states one) and
        # the service refuses another (rules.slip_purposes).
        self.fields["purpose"].widget.choices = [(p, Slip.Purpose(p).label) for p in rules.slip_purposes(site)]
        # Any table of the site parses; the service says why a table cannot take a slip.
        self.fields["table"].queryset = Table.objects.filter(site=site)
        self.fields["table"].widget.choices = [("", "Choose the table")] + [
            (t.pk, f"Table {t.number} \u00b7 {t.game_label}") for t in open_tables
        ]
        self.fields["table"].widget.attrs["class"] = "form-select form-select-lg"
        self.add_chip_fields(site.organization_id, rules.SLIP_CONTENT.at(site))
        self.site = site

    def clean_table(self):
        table = self.cleaned_data.get("table")
        if table is None:  # left on "Choose the table": the slip names its table (08-05(3) at ND)
            raise forms.ValidationError(
                f"{rules.SLIP_CONTENT.at(self.site)}: a slip names its table; choose the table."
            )
        return table


class VoidSlipForm(BootstrapMixin, forms.Form):
    reason = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Why is it void?")


class RegisterPeriodForm(BootstrapMixin, forms.Form):
    start = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        from .api import MAX_REGISTER_DAYS, REGISTER_PERIOD  # the API's limit and message

        cleaned = super().clean()
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and (end < start or (end - start).days >= MAX_REGISTER_DAYS):
            self.add_error("end", REGISTER_PERIOD)
        return cleaned


class SlipBookForm(BootstrapMixin, forms.Form):
    """A book of pre-printed slips: parsed as the API parses it (floor.api.SlipBookInputSerializer);
    floor.services.register_slip_book checks the range against the site's books and series."""

    kind = forms.ChoiceField(choices=SlipKind.choices, label="Series")
    first_number = forms.IntegerField(label="First printed number", min_value=1, max_value=limits.MAX_FORM_NUMBER)
    last_number = forms.IntegerField(label="Last printed number", min_value=1, max_value=limits.MAX_FORM_NUMBER)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("first_number", "last_number"):
            self.fields[name].error_messages["max_value"] = (
                f"A form number is at most {limits.MAX_FORM_NUMBER:,} ({limits.HOUSE_CONTROL})."
            )
