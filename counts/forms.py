"""Browser input for the count pages. Forms only parse: the figures go to the service as text,
so a bad quantity gets exactly the API's message."""

import re

from django import forms

from cardroom.forms import add_pin_fields
from core.forms import BookDateField, BootstrapMixin, NamesTheRule, offer_only
from core.rules import HOUSE_CONTROL
from packs import game_label, game_name, pack_for

from .models import BoxExchange
from .rules import COUNT_TEAM, CURRENCY, KEYS, dealer_hold_absent


def currency_from_post(data) -> list[dict]:
    """The denomination grid (`q_<form>_<cents>` inputs) as the service's currency lines."""
    lines = []
    for denomination in CURRENCY:
        raw = (data.get(f"q_{denomination.key}") or "").strip()
        if raw:
            lines.append({"denomination_cents": denomination.cents, "form": denomination.form, "quantity": raw})
    return lines


def forms_from_post(data) -> list[dict]:
    """`fill_numbers` / `credit_numbers`: slip numbers separated by commas or spaces."""
    found = []
    for kind in ("fill", "credit"):
        for token in re.split(r"[\s,;]+", data.get(f"{kind}_numbers") or ""):
            if token:
                found.append({"kind": kind, "number": token})
    return found


class OpenSessionForm(BootstrapMixin, forms.Form):
    gaming_date = BookDateField(widget=forms.DateInput(attrs={"type": "date"}))
    partner = forms.ModelChoiceField(queryset=None, label="Second count team member")

    def __init__(self, *args, partners=None, site=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["partner"].queryset = partners
        if site is not None:  # a partner missing or not one who may count: the count team rule, cited at the site
            team = COUNT_TEAM.at(site)
            self.fields["partner"].error_messages = {
                "required": f"{team}: a count team is two persons; choose the second member.",
                "invalid_choice": f"{team}: the second member is another active count team member at {site}; "
                "the person chosen may not count here.",
            }


def box_exchange_help(site) -> str:
    """What exchanging the box at each dealer change gives at `site`: each dealer's percent-of-hold,
    in the pack's words (percent-of-hold in North Dakota, hold elsewhere: packs.RevenueWords.hold_name),
    where its pack's revenue is a drop; elsewhere no dealer has one and it is not offered
    (`rules.dealer_hold_absent`, which says why)."""
    absent = dealer_hold_absent(site)
    if absent:
        return absent
    return f"At each dealer change, each dealer's {pack_for(site).revenue_words.hold_name} can be separated."


class BoxExchangeForm(BootstrapMixin, forms.Form):
    box_exchange = forms.ChoiceField(choices=BoxExchange.choices, label="Drop box exchanged")

    def __init__(self, *args, site, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["box_exchange"]
        field.help_text = box_exchange_help(site)
        if dealer_hold_absent(site):
            # Offered only where a dealer has a hold; the site's own setting where it was recorded so
            # is kept to show, and one posted is refused by the service, citing why.
            offer_only(field, [BoxExchange.GAMING_DAY], recorded=self.initial.get("box_exchange"))


class RegisterBoxForm(BootstrapMixin, forms.Form):
    table = forms.ModelChoiceField(queryset=None)
    label = forms.CharField(required=False, max_length=10, help_text="Tells apart several boxes of one table (A, B).")
    locks = forms.TypedChoiceField(choices=[(1, "One lock"), (2, "Two locks")], coerce=int, initial=1)

    def __init__(self, *args, tables=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = tables


class RemovalForm(BootstrapMixin, forms.Form):
    box = forms.ModelChoiceField(queryset=None, label="Drop box")
    gaming_date = BookDateField(widget=forms.DateInput(attrs={"type": "date"}))
    storage_place = forms.CharField(max_length=120, required=False, initial="Office safe")
    escorted_by = forms.ModelChoiceField(queryset=None, required=False)
    sole_employee_on_duty = forms.BooleanField(required=False, label="I am the only employee on duty (no escort)")
    key_holder = forms.ModelChoiceField(queryset=None, required=False, label="Key to the contents held by")
    second_key_holder = forms.ModelChoiceField(queryset=None, required=False, label="Key to the second lock held by")
    dealer_shift = forms.TypedChoiceField(coerce=int, empty_value=None, required=False, label="Dealer shift")

    def __init__(self, *args, boxes=None, people=None, counters=None, shifts=None, **kwargs):
        """`shifts`: where boxes are exchanged at each dealer change, the gaming date's dealer
        shifts by table (`queries.shift_choices`); None elsewhere, and the field is not asked."""
        super().__init__(*args, **kwargs)
        self.fields["box"].queryset = boxes
        self.fields["escorted_by"].queryset = people
        self.fields["key_holder"].queryset = counters
        ask_the_second_key(self, boxes, counters)
        if shifts is None:
            del self.fields["dealer_shift"]
            return
        self.fields["dealer_shift"].choices = [("", LATEST_SHIFT), *shifts]
        self.fields["dealer_shift"].help_text = (
            f"{HOUSE_CONTROL}: this site exchanges drop boxes at each dealer change; the shift the box served "
            "(a box placed for a shift keeps it)."
        )


# The dealer shift a removal names unless another is chosen (counts.queries.shift_for_removal).
LATEST_SHIFT = "The latest shift at the box's table begun before the removal"


class SignerForm(NamesTheRule, forms.Form):
    """On a count tablet (a station): the badge and PIN of the member doing the step
    (cardroom.pins). It only parses; the PIN and the holder's role are checked by the views'
    call to cardroom.pins and by the service."""

    def __init__(self, *args, site=None, members=None, roles=None, excluding=None, why_excluded="", **kwargs):
        super().__init__(*args, **kwargs)
        add_pin_fields(self, site, roles)  # `roles`: only the badges of who may take the step
        if excluding is not None:  # one who may not take this step (a removal's escort), said why
            badge = self.fields["signer_badge"]
            badge.widget.choices = [(k, v) for k, v in badge.widget.choices if k != excluding.initials]
            badge.help_text = why_excluded
        if members is not None:  # only the count team (or the session's two members) initial here
            with_pin = list(members.filter(signing_pin__isnull=False).order_by("initials"))
            self.fields["signer_badge"].choices = [("", "Who initials this step?")] + [
                (e.initials, f"{e.initials} · {e}") for e in with_pin
            ]
            if len(with_pin) == 1:  # the one member left to take this step: their PIN and Enter
                self.fields["signer_badge"].initial = with_pin[0].initials


class RemoveAllForm(BootstrapMixin, forms.Form):
    """All of a day's boxes in one transport: the boxes ticked, and the custody they share."""

    gaming_date = BookDateField(widget=forms.DateInput(attrs={"type": "date"}))
    boxes = forms.ModelMultipleChoiceField(
        queryset=None, required=False, widget=forms.CheckboxSelectMultiple, label="Drop boxes removed"
    )
    storage_place = forms.CharField(max_length=120, required=False, initial="Office safe")
    escorted_by = forms.ModelChoiceField(queryset=None, required=False)
    sole_employee_on_duty = forms.BooleanField(required=False, label="I am the only employee on duty (no escort)")
    key_holder = forms.ModelChoiceField(queryset=None, required=False, label="Key to the contents held by")
    second_key_holder = forms.ModelChoiceField(
        queryset=None,
        required=False,
        label="Key to the second lock held by",
    )

    def __init__(self, *args, boxes=None, people=None, counters=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["boxes"].queryset = boxes
        self.fields["boxes"].widget.attrs.pop("class", None)
        self.fields["escorted_by"].queryset = people
        self.fields["key_holder"].queryset = counters
        ask_the_second_key(self, boxes, counters)


def ask_the_second_key(form, boxes, counters) -> None:
    """The key to a second lock is asked only where a box offered has two locks, naming those boxes
    (`rules.KEYS`): a box with one lock has no second key (the service refuses one), and the form
    asked for it at every site whatever its boxes."""
    two_locks = [box for box in boxes if box.locks == 2] if boxes is not None else []
    if not two_locks:
        del form.fields["second_key_holder"]
        return
    field = form.fields["second_key_holder"]
    field.queryset = counters
    named = ", ".join(str(box) for box in two_locks)
    field.help_text = (
        f"{KEYS.at(two_locks[0].site)}: for a box with two locks ({named}), the other count team member; "
        "a box with one lock has no second key."
    )


class GamingDateForm(NamesTheRule, forms.Form):
    gaming_date = BookDateField(widget=forms.DateInput(attrs={"type": "date", "class": "form-control"}))


class CountSettingsForm(BoxExchangeForm):
    """Every count setting of a site (counts.services.update_count_settings checks them)."""

    twenty_one_auditor = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label="Nobody named",
        label="Game 21 auditor",  # named below by the site's pack's word for the game
        help_text="The person who audits game 21 at this site; never on its count team (house control).",
    )

    def __init__(self, *args, people=None, site, **kwargs):
        super().__init__(*args, site=site, **kwargs)
        self.fields["twenty_one_auditor"].queryset = people
        # the game as the site's pack names it ("Twenty-one", "Blackjack")
        field = self.fields["twenty_one_auditor"]
        field.label = f"{game_label(site, '21')} auditor"
        field.help_text = (
            f"The person who audits {game_name(site, '21')} at this site; never on its count team (house control)."
        )
