"""Browser forms parse input; the model and the services hold the rules."""

from django import forms
from django.contrib.admin import forms as admin_forms
from django.contrib.auth.forms import AdminPasswordChangeForm, AdminUserCreationForm, AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Q

from core.citations import cite, stated
from core.forms import BootstrapMixin, CentsField, NamesTheRule, offer_only, say_when_blank
from core.lockouts import SIGN_IN_BLANKS, SIGN_IN_REFUSED
from core.rules import HOUSE_CONTROL

from .chips import default_spec, laws_for
from .models import (
    BOUND_CODES,
    ChipDenomination,
    Employee,
    EmployeeRelation,
    Game,
    Membership,
    Role,
    Site,
    Station,
    Table,
    refuse_taken_login,
    refuse_weak_password,
    role_label,
    site_jurisdictions,
)
from .services import refuse_moving_the_books, refuse_renaming_the_records, refuse_revaluing
from .site_keeps import employee_identifier, keeps_drop_boxes
from .table_rules import (
    DISCONTINUED_REDEMPTION,
    LicensedOption,
    documented_values,
    fixed_table_options,
    game_label,
    game_word,
    licensed_options,
    licensed_values,
    option_errors,
    special_events_absent,
    table_defaults,
    table_fields,
    table_games,
)


def time_zone_choices() -> list[tuple[str, str]]:
    """The IANA time zones, the United States' first (every pack is a state's)."""
    from zoneinfo import available_timezones

    zones = sorted(z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/")))
    us = [z for z in zones if z.startswith(("America/", "Pacific/Honolulu"))]
    return [("United States and the Americas", [(z, z) for z in us]),
            ("Elsewhere", [(z, z) for z in zones if z not in us] + [("UTC", "UTC")])]  # fmt: skip


class SiteForm(BootstrapMixin, forms.ModelForm):
    time_zone = forms.TypedChoiceField(
        choices=time_zone_choices, help_text="The site's local time: its gaming days and every time it prints."
    )

    class Meta:
        model = Site
        fields = [
            "name",
            "jurisdiction",
            "time_zone",
            "business_day_start_hour",
            "late_entry_minutes",
            "seasonal",
            "active",
            "twenty_one_discontinued_on",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The day game 21 stopped matters where the site's pack states the thirty days' redemption
        # after it (ND 99-01.3-08-06(2)): the field is shown only there, by the pack's name of the
        # game. A new site's pack is the one it is offered (the current site's, `request_org_instance`).
        jurisdiction = self.instance.jurisdiction
        redeemed = stated(DISCONTINUED_REDEMPTION, jurisdiction)
        if not redeemed:
            del self.fields["twenty_one_discontinued_on"]
            return
        field = self.fields["twenty_one_discontinued_on"]
        field.label = f"{game_label(jurisdiction, '21')} discontinued on"
        field.help_text = (
            f"The day {game_word(jurisdiction)} was discontinued at this site. {redeemed}: its chips are redeemed for "
            "thirty days after."
        )


class TableForm(BootstrapMixin, forms.ModelForm):
    min_wager_cents = CentsField(label="Minimum wager ($)")
    max_wager_cents = CentsField(label="Maximum wager ($)")
    min_bank_cents = CentsField(
        label="Minimum bank ($)",
        required=False,
        help_text="A player-banked game only: within the limit the site's pack sets (the refusal cites it).",
    )
    tip_bet_max_cents = CentsField(
        label="Tip bet limit ($)",
        required=False,
        help_text="The organization's limit of a tip bet, at most the table's maximum wager. Blank: up to the maximum.",
    )
    jumbo_faced_cards = forms.BooleanField(
        label="Jumbo-faced cards",
        required=False,
        help_text="Untick only at a table dealt with a hole card reader whose cards the attorney general has approved.",
    )
    non_jumbo_approval = forms.CharField(
        label="Approval of non-jumbo cards (attorney general's reference and date)",
        required=False,
        max_length=Table._meta.get_field("non_jumbo_approval").max_length,
        help_text="Where the cards are not jumbo-faced: the approval the organization received, e.g. its letter's "
        "reference and date.",
    )

    class Meta:
        model = Table
        fields = [
            "site",
            "number",
            "game",
            "min_wager_cents",
            "max_wager_cents",
            "location",
            "active",
            "decks",
            "dealer_hits_soft_17",
            "insurance_allowed",
            "even_money_offered",
            "tip_betting_allowed",
            "tip_bet_max_cents",
            "double_down",
            "tip_double_down",
            "dealing_method",
            "card_reader_malfunction",
            "jumbo_faced_cards",
            "non_jumbo_approval",
            # The options the site's jurisdiction pack judges (packs).
            "max_players",
            "betting_spaces",
            "dealt_from",
            "double_on",
            "double_after_split",
            "split_pairs",
            "resplit_allowed",
            "split_aces_one_card",
            "surrender",
            "blackjack_payout",
            "payout_rounding",
            "tie_option",
            "banker",
            "min_bank_cents",
        ]

    def __init__(self, *args, sites=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["site"].queryset = sites
        if self.instance.pk:
            self.fields["site"].disabled = True
        self.site = self.instance.site if self.instance.site_id else None
        if self.site is not None:
            # The fields of the site's pack only; a new table goes to a site of the same rules.
            keep = set(table_fields(self.site.jurisdiction))
            self.other_options = [name for name in self.fields if name not in keep]
            for name in self.other_options:
                del self.fields[name]
            # the games the site's pack deals, each by its pack's name
            self.fields["game"].choices = table_games(self.site.jurisdiction)
            offer_only_the_fixed_values(self, self.site)
            offer_the_sites_locations(self, self.site)
            offer_only_the_documented_values(self)
            if not self.instance.pk:
                self._start_from_the_packs_values()
            follow_the_licence(self, self.site)
            if not self.instance.pk and sites is not None:
                self.fields["site"].queryset = sites.filter(jurisdiction=self.site.jurisdiction)
                self.fields["site"].help_text = (
                    f"A site with {self.site.get_jurisdiction_display()} rules: the options below are theirs. "
                    "Switch site to add a table under other rules."
                )

    def _start_from_the_packs_values(self) -> None:
        """A new table's form starts from the values its pack's text fixes (New York's doubling on
        10 or 11 only, 9 NYCRR 4620.5(l)(1)), not the model's; an option the pack requires with no
        single value (New York's decks, one to four) starts blank, for the user to give."""
        if self.is_bound:
            return
        given = {"game": self.initial.get("game", Game.TWENTY_ONE), **licensed_values(self.site)}
        values, missing = table_defaults(self.site.jurisdiction, given)
        values = {**given, **values}  # the licence's options (New York's tie option) shown as the table takes them
        for name, value in values.items():
            if name in self.fields:
                self.initial[name] = value  # over the model's default, which the instance gave
        for name in missing:
            if name in self.fields:
                self.initial[name] = None

    def clean(self):
        """A value posted anyway for another pack's option is refused, naming the field (as the
        service refuses it from the API)."""
        cleaned = super().clean()
        if self.site is not None:
            for message in posted_option_errors(self.site, self.data).values():
                self.add_error(None, message)
        judge_the_posted_licence_options(self)
        return cleaned

    def _post_clean(self):
        super()._post_clean()  # the model's clean: the pack's table rules, cited
        law_over_bounds(self)


def offer_only_the_fixed_values(form, site) -> None:
    """An option whose value the site's pack fixes (Washington blackjack's player dealer/banker,
    WAC 230-40-125(2)) offers that value alone, beside the table's own where it was recorded with
    another: no choice the pack always refuses is offered. The field still takes every value of the
    model's, so one posted anyway is refused by the pack's rule, citing it (`Table.clean`)."""
    for name, fixed in fixed_table_options(site.jurisdiction).items():
        field = form.fields.get(name)
        if field is not None:
            allowed = (fixed,) if isinstance(fixed, str) else tuple(fixed)
            settings = "the only setting" if len(allowed) == 1 else "the settings"
            rule = f"{cite(f'table.{name}', site.jurisdiction)}: {settings} the rule allows."
            offer_only(field, allowed, recorded=_recorded(form, name), help_text=rule)


def offer_only_the_documented_values(form, documented=None) -> None:
    """Where the internal controls in effect at the table's site document the values of an option
    (the WSGC house-banked rules: "version 1 documents blackjack payout: 3 to 2"), a choice offers
    those alone, beside the table's own where it was recorded with another, and says so citing
    them: no choice the table check always refuses. A yes/no option is told, not narrowed. One
    posted anyway is refused by the check (`Table.clean`), in the same words. `documented`: the
    values to offer where the caller widens them (the game page: `approvals.checks.settable_table_values`)."""
    documented = documented_values(form.instance) if documented is None else documented
    for name, values in documented.items():
        field = form.fields.get(name)
        if field is not None and not field.disabled:
            offer_only(field, values.values, recorded=_recorded(form, name), help_text=values.note)


def offer_the_sites_locations(form, site) -> None:
    """A temporary special-event table is a location only where the site's pack states special
    events (ND 99-01.3-08-04): elsewhere the form offers "Regularly located" alone, beside a table's
    own where it was recorded otherwise, and says why; one posted anyway is refused at the field by
    the pack's table rules (`special_events_absent`)."""
    field = form.fields.get("location")
    absent = special_events_absent(site)
    if field is not None and absent:
        offer_only(field, [Table.Location.REGULAR], recorded=_recorded(form, "location"), help_text=absent)


def _recorded(form, name: str):
    """The value of `name` the form's record was kept with; None for a new one."""
    return getattr(form.instance, name) if form.instance.pk else None


def follow_the_licence(form, site) -> None:
    """The options the site's law puts on the organization's licence (New York's tie option, 9
    NYCRR 4620.5(h): "The license shall reflect one of the following options") are shown as the
    licence in force sets them, read-only, with the licence cited: no table chooses its own. A
    table already recorded with another takes the licence's when saved (the form says so); with no
    licence in force the option stays blank and the table is refused until one is recorded."""
    form.licensed = {}
    if site is None:
        return
    for name, option in licensed_options(site).items():
        field = form.fields.get(name)
        if field is None:
            continue
        form.licensed[name] = option
        field.disabled = True
        field.help_text = option.note
        recorded = _recorded(form, name)
        if recorded is not None and option.value is not None and recorded != option.value:
            field.help_text += f" This table was recorded with {recorded}: saving it takes the licence's."
        form.initial[name] = option.value  # over the instance's own: the licence's, for every table
    follow_what_the_licence_fixes(form, site)


def follow_what_the_licence_fixes(form, site) -> None:
    """An option the site's pack fixes once the licence's options are known (New York's natural
    payout under the licence's tie option, 9 NYCRR 4620.5(h)(2)) is shown as it follows, read-only,
    with the rule cited: no table chooses another, which its table rules would refuse. A value
    posted anyway that differs is judged as the licence's own options are."""
    given = {name: option.value for name, option in form.licensed.items() if option.value is not None}
    if not given:
        return
    game = form.instance.game if form.instance.pk else form.initial.get("game", Game.TWENTY_ONE)
    following, _ = table_defaults(site.jurisdiction, {"game": game, **given})
    unlicensed, _ = table_defaults(site.jurisdiction, {"game": game})
    for name, value in following.items():
        field = form.fields.get(name)
        if field is None or name in given or unlicensed.get(name) == value:
            continue
        labels = ", ".join(f"{form.fields[n].label.lower()} {v}" for n, v in given.items() if n in form.fields)
        note = f"{cite(f'table.{name}', site.jurisdiction)}: follows from the licence's {labels}."
        recorded = _recorded(form, name)
        form.licensed[name] = LicensedOption(value, note)
        field.disabled = True
        field.help_text = note
        if recorded is not None and recorded != value:
            field.help_text += f" This table was recorded with {recorded}: saving it takes this."
        form.initial[name] = value


def judge_the_posted_licence_options(form) -> None:
    """A value posted anyway for an option the licence sets (its field is read-only: a browser
    posts none) is judged as the API judges it, not silently replaced by the licence's: one that
    differs is refused at the field by the model's check, in its words (9 NYCRR 4620.5(h): "the
    licence ... reflects tie option 1; every table under it follows it (this table: 3)")."""
    for name, option in getattr(form, "licensed", {}).items():
        key = form.add_prefix(name)
        if key not in form.data:
            continue
        posted = form.data.get(key)
        if posted == ("" if option.value is None else str(option.value)):
            continue
        try:  # the model's rules judge it, as the API's value (a 4 too: "the licence reflects one of ...")
            form.cleaned_data[name] = None if posted == "" else form.instance._meta.get_field(name).to_python(posted)
        except ValidationError:
            cited = option.note  # the licence's option, its rule cited (9 NYCRR 4620.5(h))
            form.add_error(name, f'{cited} (got "{posted}")')


def law_over_bounds(form) -> None:
    """Where a value is refused both by its field's sanity bound ("Ensure this value is less than
    or equal to 8.") and by the pack's rule, which cites its section, keep the rule's words only:
    one refusal, naming the rule, not the same refusal twice."""
    for name, errors in list(form._errors.items()):
        found = errors.as_data()
        cited = [error for error in found if error.code not in BOUND_CODES]
        if name != NON_FIELD_ERRORS and cited and len(cited) < len(found):
            form._errors[name] = form.error_class(cited)


class KeptFieldsAdminForm(forms.ModelForm):
    """An admin form whose row keeps some fields once written: `keep(current, changed)` (a service's
    check, raising ValidationError) refuses the change at the field, as on the setup page and in the
    API, where the admin's save would otherwise raise past its form."""

    keep = None

    def _post_clean(self):
        super()._post_clean()
        if self.instance.pk:
            try:
                type(self).keep(type(self.instance).objects.get(pk=self.instance.pk), self.instance)
            except ValidationError as refused:
                self._update_errors(refused)


class TableAdminForm(KeptFieldsAdminForm):
    """The admin's table form: its fields are the site's pack's (`TableAdmin.get_fields`); a value
    posted for another pack's option is refused, as on the setup page and in the API; a table keeps
    its site, and once it has records its game and number (`services.refuse_renaming_the_records`)."""

    keep = staticmethod(refuse_renaming_the_records)
    # The table's site, whose pack's fields the admin shows (`TableAdmin.get_form` sets it): the
    # options its law puts on the licence are shown as the licence sets them, read-only.
    licence_site = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        follow_the_licence(self, self.licence_site)
        if self.licence_site is not None:
            offer_the_sites_locations(self, self.licence_site)
            # as the setup page: no choice the pack's text or the internal controls always refuse
            offer_only_the_fixed_values(self, self.licence_site)
            if self.instance.site_id:
                offer_only_the_documented_values(self)

    def clean(self):
        cleaned = super().clean()
        site = cleaned.get("site") or (self.instance.site if self.instance.site_id else None)
        if site is not None:
            for message in posted_option_errors(site, self.data).values():
                self.add_error(None, message)
        judge_the_posted_licence_options(self)
        return cleaned


class ChipDenominationAdminForm(KeptFieldsAdminForm):
    """The admin's chip form: a chip's value never changes (`services.refuse_revaluing`)."""

    keep = staticmethod(refuse_revaluing)


class SiteAdminForm(KeptFieldsAdminForm):
    """The admin's site form: a site with records keeps its jurisdiction, time zone and business day
    start hour (`services.refuse_moving_the_books`)."""

    keep = staticmethod(refuse_moving_the_books)


class ChipDenominationForm(BootstrapMixin, forms.ModelForm):
    value_cents = CentsField(label="Value ($)")
    # The colours a chip law prescribes are checked by the model (`ChipDenomination.clean`,
    # `cardroom.chip_rules`); blank takes the law's default where the organization has one.
    primary_colour = forms.CharField(required=False, help_text="Blank: the colour the chip law prescribes.")
    edge_spots = forms.CharField(required=False, help_text="Blank: the edge spots the chip law prescribes.")
    edge_colour = forms.CharField(
        required=False, help_text="A contrasting edge spot colour. Blank: the chip law's default, if any."
    )
    second_edge_colour = forms.CharField(required=False, help_text="Optional second edge colour.")

    class Meta:
        model = ChipDenomination
        fields = [
            "value_cents",
            "marking",
            "primary_colour",
            "edge_spots",
            "edge_colour",
            "second_edge_colour",
            "active",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not any(law.specs for law in laws_for(self.instance.organization_id)):
            # No chip law the organization is held to prescribes colours: nothing fills a blank.
            for name in ("primary_colour", "edge_spots"):
                self.fields[name].required = True
                self.fields[name].help_text = ""
            self.fields["edge_colour"].help_text = "A contrasting edge spot colour, if any."
        if self.instance.pk:
            # A disabled field is cleaned from its initial value: the model's cents, which the
            # field would read as dollars (a $5 chip saved as $500); give it as the page shows it.
            self.fields["value_cents"].disabled = True
            self.initial["value_cents"] = self.fields["value_cents"].prepare_value(self.instance.value_cents)

    def _post_clean(self):
        # Colours are filled in by the service; validate the rest here.
        spec = default_spec(self.instance.organization_id, self.cleaned_data.get("value_cents"))
        for name in ("primary_colour", "edge_spots"):
            if not self.cleaned_data.get(name) and spec is not None:
                self.cleaned_data[name] = getattr(spec, name)
        if not self.instance.pk and not self.cleaned_data.get("edge_colour") and spec is not None:
            self.cleaned_data["edge_colour"] = spec.default_edge_colour
        super()._post_clean()


class EmployeeForm(BootstrapMixin, forms.ModelForm):
    username = forms.CharField(max_length=150, label="Login name")
    password = forms.CharField(widget=forms.PasswordInput, label="Initial password")
    first_name = forms.CharField(max_length=150, required=False)
    last_name = forms.CharField(max_length=150, required=False)

    class Meta:
        model = Employee
        fields = ["initials", "state_identifier", "employment_type", "supervisor", "independent_contractor", "active"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["supervisor"].queryset = Employee.objects.filter(
            organization_id=self.instance.organization_id
        ).select_related("user")
        sites = Site.objects.filter(organization_id=self.instance.organization_id)
        self.fields["role"] = forms.ChoiceField(
            choices=[("", "None yet"), *role_choices(sites)],
            required=False,
            help_text="The first role; more on the employee's page.",
        )
        self.fields["site"] = forms.ModelChoiceField(
            sites, required=False, label="At site", empty_label="Every site (gaming managers and auditors)"
        )
        if self.instance.pk:
            del self.fields["username"], self.fields["password"], self.fields["role"], self.fields["site"]
            self.fields["first_name"].initial = self.instance.user.first_name
            self.fields["last_name"].initial = self.instance.user.last_name
            self.fields["supervisor"].queryset = self.fields["supervisor"].queryset.exclude(pk=self.instance.pk)
        self._name_the_state_identifier()
        self.order_fields(["username", "password", "first_name", "last_name"])

    def _name_the_state_identifier(self) -> None:
        """The state-issued identifier is shown only where the law of one of the organization's
        sites names one, by its name there (Washington's Class B licence number, WAC 230-03-265(3));
        where none names one (North Dakota, New York) the form leaves it out (the page says why, and
        `Employee.clean` refuses one given anyway, from the API too)."""
        codes = site_jurisdictions(self.instance.organization_id)
        named = list(dict.fromkeys(filter(None, (employee_identifier(code) for code in codes))))
        if not named:
            del self.fields["state_identifier"]
            return
        field = self.fields["state_identifier"]
        if len({label for label, _ in named}) == 1:
            field.label = named[0][0]
        field.help_text = (
            "; ".join(f"{label} ({citation})" for label, citation in named)
            + ": the number the state issued this employee (letters, digits and hyphens)."
        )


def role_choices(sites) -> list[tuple[str, str]]:
    """The roles offered at `sites`, each as they name it (`role_name_among`): a wheel operator
    only where one of them deals a paddlewheel (`Membership.clean` refuses it elsewhere)."""
    sites = list(sites)
    wheels = any(game_label(jurisdiction, Game.PADDLEWHEEL) for jurisdiction in {s.jurisdiction for s in sites})
    return [(role, role_name_among(role, sites)) for role in Role.values if wheels or role != Role.WHEEL_OPERATOR]


def role_name_among(role: str, sites) -> str:
    """`role` as `sites` name it (`role_label`): the one name they all give it ("Cashier" where
    each is a fees room), else its own name with the others and where they are given ("Chip bank
    cashier (Cashier at Tacoma Blackjack Room)")."""
    where: dict[str, list[str]] = {}
    for site in sites:
        where.setdefault(role_label(role, site), []).append(site.name)
    own = Role(role).label
    if len(where) <= 1:
        return next(iter(where), own)
    others = "; ".join(f"{name} at {', '.join(names)}" for name, names in where.items() if name != own)
    return f"{own} ({others})"


class MembershipForm(BootstrapMixin, forms.ModelForm):
    class Meta:
        model = Membership
        fields = ["role", "site"]

    def __init__(self, *args, sites=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = [("", "---------"), *role_choices(sites)]
        self.fields["site"].queryset = sites
        self.fields["site"].empty_label = "All sites (gaming manager or auditor only)"


class RelationForm(BootstrapMixin, forms.ModelForm):
    class Meta:
        model = EmployeeRelation
        fields = ["kind", "relative"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["relative"].queryset = (
            Employee.objects.filter(organization_id=self.instance.employee.organization_id)
            .exclude(pk=self.instance.employee_id)
            .select_related("user")
        )


def signer_choices(site: Site, roles=None) -> list[tuple[str, str]]:
    """The badges (initials) of the active employees who hold a role at `site` (or across its
    organization; one of `roles` when given) and have a signing PIN: the selector of a station's forms."""
    held = {"memberships__role__in": list(roles)} if roles else {}
    people = (
        Employee.objects.filter(organization_id=site.organization_id, active=True, signing_pin__isnull=False)
        .filter(Q(memberships__site=site) | Q(memberships__site__isnull=True), **held)
        .select_related("user")
        .distinct()
        .order_by("initials")
    )
    return [("", "Who initials this step?")] + [(e.initials, f"{e.initials} · {e}") for e in people]


def add_pin_fields(form: forms.Form, site: Site, roles=None) -> None:
    """On a station (a shared terminal), the person doing the step picks their badge and types
    their PIN (cardroom.pins); the form only parses, the service checks. `roles`: the selector
    lists only the badges of people holding one of them (a fill's preparers, not the count team);
    any badge of the site is still accepted, so the service refuses the others citing its rule."""
    form.fields["signer_badge"] = forms.ChoiceField(choices=signer_choices(site), label="Badge (initials)")
    if roles:
        form.fields["signer_badge"].widget.choices = signer_choices(site, roles)
    form.fields["signer_pin"] = forms.CharField(
        label="PIN",
        max_length=32,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off", "class": "form-control"}),
    )
    form.fields["signer_badge"].widget.attrs.setdefault("class", "form-select")
    # the station's step is the person's, initialled with their own badge and PIN (cardroom.pins)
    form.fields["signer_badge"].error_messages["required"] = (
        f"{HOUSE_CONTROL}: a step on a shared terminal is initialled by who takes it; choose your badge."
    )
    form.fields["signer_pin"].error_messages["required"] = (
        f"{HOUSE_CONTROL}: a step on a shared terminal is initialled by who takes it; type your PIN."
    )


class SigningPinForm(BootstrapMixin, forms.Form):
    pin = forms.CharField(label="New PIN", max_length=32, widget=forms.PasswordInput(attrs={"inputmode": "numeric"}))
    employee = forms.ModelChoiceField(
        queryset=Employee.objects.none(),
        required=False,
        empty_label="My own PIN",
        label="Whose PIN (a gaming manager resets another's)",
    )


class NamedBlanks(NamesTheRule):
    """A sign-in form whose blank login name or password is refused at the field in words of signing
    in (`SIGN_IN_BLANKS`), not those of a record left incomplete; Django's other stock words name
    the field and House control (`NamesTheRule`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].label = "Login name"
        say_when_blank(self, SIGN_IN_BLANKS)


class SignInForm(NamedBlanks, AuthenticationForm):
    """Django's sign-in form; a deactivated station, given its right password, is told so
    (cardroom.pins.deactivated_station_refusal) rather than that the password is wrong."""

    station_refusal = ""
    sign_in_refused = SIGN_IN_REFUSED

    def clean(self):
        try:
            return super().clean()
        except ValidationError:
            from .pins import deactivated_station_refusal

            data = self.cleaned_data
            self.station_refusal = deactivated_station_refusal(data.get("username", ""), data.get("password", "")) or ""
            if self.station_refusal:
                raise ValidationError(self.station_refusal, code="station_deactivated") from None
            raise


class AdminSignInForm(NamedBlanks, admin_forms.AdminAuthenticationForm):
    """The admin's sign-in form: a wrong password, or a login that may not use the admin, is answered
    in the sign-in page's and the API's one wording (`SIGN_IN_REFUSED`), which, like Django's, does
    not tell which of the two it was."""

    error_messages = {**admin_forms.AdminAuthenticationForm.error_messages, "invalid_login": SIGN_IN_REFUSED}


# House control: a new password is typed twice, the same both times, before it is kept.
PASSWORDS_DIFFER = f"{HOUSE_CONTROL}: the two passwords differ; type the same new password twice."


class PasswordRulesNamed(NamesTheRule):
    """The admin's password forms refuse in the product's words: two passwords that differ
    (`PASSWORDS_DIFFER`), a weak one as the setup page and the API refuse it
    (`models.refuse_weak_password`, each of the validators' sentences under House control), a blank
    one naming the field (`NamesTheRule`); never Django's bare words."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.error_messages = {**self.error_messages, "password_mismatch": PASSWORDS_DIFFER}

    def validate_password_for_user(self, user, password_field_name="password2"):
        password = self.cleaned_data.get(password_field_name)
        if password and self.cleaned_data.get("set_usable_password", True):  # not when the password is disabled
            try:
                refuse_weak_password(password, user, password_field_name)
            except ValidationError as refused:
                self.add_error(None, refused)


class AdminPasswordForm(PasswordRulesNamed, AdminPasswordChangeForm):
    """Another login's new password, set by a superuser in the admin (UserAdmin's change password page)."""


class OwnPasswordForm(PasswordRulesNamed, admin_forms.AdminPasswordChangeForm):
    """One's own new password in the admin ("Change password"), given the current one."""

    error_messages = {
        **admin_forms.AdminPasswordChangeForm.error_messages,
        "password_incorrect": f"{HOUSE_CONTROL}: Old password is not this login's password; type your current one.",
    }


class AdminLoginCreationForm(PasswordRulesNamed, AdminUserCreationForm):
    """A new login in the admin, with its password; a login name taken, in any case, is refused in
    the set-up page's and the API's words (`models.refuse_taken_login`)."""

    def clean_username(self):
        username = self.cleaned_data.get("username")
        try:
            refuse_taken_login(username)
        except ValidationError as taken:
            raise ValidationError(taken.message_dict["username"], code="unique") from None
        return username


class StationForm(BootstrapMixin, forms.Form):
    """A shared terminal's login (cardroom.pins.create_station checks and creates it)."""

    site = forms.ModelChoiceField(queryset=Site.objects.none(), empty_label=None)
    name = forms.CharField(max_length=60, label="Name (e.g. Pit 1 terminal)")
    kind = forms.ChoiceField(
        choices=Station.Kind.choices,
        initial=Station.Kind.PIT,
        help_text="The forms it presents: the pit's (slips), the count room's (drop counts), or both.",
    )
    username = forms.CharField(max_length=150, label="Login")
    password = forms.CharField(widget=forms.PasswordInput, strip=False)

    def __init__(self, *args, sites, here=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["site"].queryset = sites
        if here is not None:
            self.initial.setdefault("site", here)
            self._offer_the_kinds_of(here, sites)

    def _offer_the_kinds_of(self, here: Site, sites) -> None:
        """Only the kinds of station `here` (the current site) takes, and only at the sites that
        take the same kinds: no count tablet is offered for a site that keeps no drop boxes (its
        organization's others are one switch of site away)."""
        kinds, kind, site_field = station_kinds(here), self.fields["kind"], self.fields["site"]
        kind.widget.choices = [(value, label) for value, label in Station.Kind.choices if value in kinds]
        if Station.Kind.COUNT not in kinds:
            kind.help_text = f"The forms it presents: the pit's. {here} keeps no drop boxes, so no count tablet."
        alike = [site.pk for site in sites if station_kinds(site) == kinds]
        if len(alike) < len(sites):
            site_field.queryset = sites.filter(pk__in=alike)
            site_field.help_text = (
                "The sites that keep drop boxes: switch site to add a station at one that keeps none."
                if Station.Kind.COUNT in kinds
                else "The sites that keep no drop boxes: switch site to add a count tablet at one that keeps them."
            )


def station_kinds(site: Site) -> list[str]:
    """The kinds of station offered at `site`: a count tablet (alone or with the pit terminal)
    only where the site keeps drop boxes (`site_keeps.keeps_drop_boxes`: not at a fees room, whose
    revenue is its fees, WAC 230-40-125(1))."""
    return list(Station.Kind.values) if keeps_drop_boxes(site) else [Station.Kind.PIT]


def posted_option_errors(site, data) -> dict[str, str]:
    """`option_errors` of the Table fields posted in `data` (a form's data): a value sent for a
    field the site's form does not show is refused, not silently dropped."""
    names = {f.name for f in Table._meta.concrete_fields}
    return option_errors(site, [name for name in data if name in names])
