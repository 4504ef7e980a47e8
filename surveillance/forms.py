"""Browser forms parse input; the services hold the rules (the same message as the API)."""

from datetime import timedelta

from django import forms
from django.utils import timezone

from cardroom.models import Employee, Table
from core.forms import BookDateField, BootstrapMixin, CentsField
from core.rules import HOUSE_CONTROL
from floor.rules import house_chips

from . import queries
from .models import Equipment, EquipmentChange, Outage, ReviewTask, SpecialEvent
from .rules import (
    FIELD_OF_VIEW,
    HOUSE_PROGRAM_MAX_FOOTAGE_MINUTES,
    HOUSE_PROGRAM_MAX_WEEKS,
    REVIEW_MIN_FOOTAGE,
    REVIEW_PROGRAM,
    REVIEW_PROGRAM_LENGTH,
    REVIEW_WEEK,
    VENDOR_DEFERRAL,
)

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def _date(**kwargs):
    return BookDateField(widget=DATE, **kwargs)


def _datetime(**kwargs):
    return forms.DateTimeField(widget=DATETIME, input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"], **kwargs)


class SiteForm(BootstrapMixin, forms.Form):
    """A form whose choices are the rows of the current site."""

    def __init__(self, *args, site=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.site = site
        for name, field in self.fields.items():
            if isinstance(field, forms.ModelChoiceField):
                field.queryset = self.scoped_queryset(name, field.queryset)

    def scoped_queryset(self, name, queryset):
        model = queryset.model
        if model is Table:
            return queryset.filter(site=self.site, active=True)
        if model is Equipment:
            return queryset.filter(site=self.site, removed_on__isnull=True)
        if model is EquipmentChange:
            return queryset.filter(site=self.site)
        if model is Employee:
            return queryset.filter(organization_id=self.site.organization_id, active=True).select_related("user")
        return queryset


class StatusForm(SiteForm):
    required = forms.BooleanField(required=False, label="Video surveillance required")
    since = _date(label="Required since (first gaming date)")
    operational_on = _date(required=False, label="System operational on")
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class OutageForm(SiteForm):
    table = forms.ModelChoiceField(Table.objects.all())
    kind = forms.ChoiceField(choices=Outage.Kind.choices)
    equipment = forms.ModelChoiceField(Equipment.objects.all(), required=False)
    began_at = _datetime(label="Not operating properly since")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class RepairForm(BootstrapMixin, forms.Form):
    repaired_at = _datetime(label="Repaired at")
    description = forms.CharField(label="Repair", widget=forms.Textarea(attrs={"rows": 2}))


class ReviewLogForm(SiteForm):
    table = forms.ModelChoiceField(Table.objects.all())
    gaming_date = _date()
    camera_recording = forms.BooleanField(required=False, label="Camera is recording")
    unobstructed_view = forms.BooleanField(required=False, label="Unobstructed view")
    clear_picture = forms.BooleanField(required=False, label="Clear picture")
    # Ticked by the reviewer, as the three checks above are: the log documents what was seen
    # (08-04(7): "review and document"), so no box answers for the reviewer; unticked, it opens the outage.
    field_of_view = forms.BooleanField(required=False, label="Whole table in view, dome clean")
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, site=None, **kwargs):
        super().__init__(*args, site=site, **kwargs)
        if site is None or not FIELD_OF_VIEW.applies(site):
            del self.fields["field_of_view"]  # asked only where the pack states it (ND 99-01.3-08-04(1)(c))
            return
        sign = ", the site identification" if queries.organization_has_other_sites(site) else ""
        self.fields["field_of_view"].help_text = (
            "On the recording: the face of the shoe, every betting spot, the discard holder, the chip tray, the "
            f"currency plunger, the table number{sign}. Untick it if any of these is cut off or the dome is dirty."
        )


class EquipmentForm(SiteForm):
    table = forms.ModelChoiceField(Table.objects.all(), required=False)
    kind = forms.ChoiceField(choices=Equipment.Kind.choices)
    make_model = forms.CharField(max_length=120, label="Make and model")
    serial_number = forms.CharField(max_length=80, required=False)
    vendor = forms.CharField(max_length=120, required=False)
    installed_on = _date()
    replaces = forms.ModelChoiceField(Equipment.objects.all(), required=False)
    note = forms.CharField(required=False)


class SampleForm(SiteForm):
    change = forms.ModelChoiceField(EquipmentChange.objects.all(), label="Equipment change")
    submitted_on = _date()
    note = forms.CharField(required=False)


class PurchaseForm(SiteForm):
    vendor = forms.CharField(max_length=120)
    approved_vendor = forms.BooleanField(required=False, initial=True, label="Vendor approved by the attorney general")
    description = forms.CharField(max_length=200)
    purchased_on = _date()
    price_cents = CentsField(label="Price ($)")
    deferred_cents = CentsField(label="Deferred until approval ($)")
    change = forms.ModelChoiceField(EquipmentChange.objects.all(), required=False)

    def __init__(self, *args, site=None, **kwargs):
        super().__init__(*args, site=site, **kwargs)
        if site is not None and not VENDOR_DEFERRAL.applies(site):
            # The attorney general's approval of vendors and video is North Dakota's (ND 99-01.3-08-04(10)).
            self.fields["approved_vendor"].label = "Approved vendor (house control)"
            self.fields["deferred_cents"].label = "Payment deferred ($)"


class RecordingForm(SiteForm):
    table = forms.ModelChoiceField(Table.objects.all())
    recorder = forms.ModelChoiceField(Equipment.objects.filter(kind=Equipment.Kind.RECORDING_UNIT), required=False)
    gaming_date = _date()
    started_at = _datetime(label="Started (chips first available)")
    stopped_at = _datetime(label="Stopped (table closed for the day)")

    def __init__(self, *args, site=None, **kwargs):
        super().__init__(*args, site=site, **kwargs)
        if site is not None and not house_chips(site):  # a fees room's chips are the players' (Tacoma)
            self.fields["started_at"].label = "Started (table opened for play)"


class AccessForm(SiteForm):
    accessed_at = _datetime()
    purpose = forms.CharField(max_length=200)
    table = forms.ModelChoiceField(Table.objects.all(), required=False)
    accessed_by = forms.ModelChoiceField(Employee.objects.all(), required=False, help_text="Blank: yourself.")


class ProgramForm(SiteForm):
    start_date = _date()
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))
    # The house's own program's length and footage, offered only where the site's pack states no
    # program (its numbers are the pack's elsewhere); the bounds are the service's.
    weeks = forms.IntegerField(required=False, label="Length (whole weeks)")
    footage_minutes = forms.IntegerField(required=False, label="Footage per table a week (minutes)")

    def __init__(self, *args, site=None, **kwargs):
        super().__init__(*args, site=site, **kwargs)
        if site is None or REVIEW_PROGRAM.applies(site):
            del self.fields["weeks"], self.fields["footage_minutes"]
            return
        today = timezone.localdate()
        weeks = REVIEW_PROGRAM_LENGTH.on(site, today).value // REVIEW_WEEK
        minutes = REVIEW_MIN_FOOTAGE.on(site, today).value // timedelta(minutes=1)
        self.fields["weeks"].help_text = (
            f"{HOUSE_CONTROL}: the house's own program, its length set here: 1 to {HOUSE_PROGRAM_MAX_WEEKS} "
            f"weeks; blank: {weeks}."
        )
        self.fields["footage_minutes"].help_text = (
            f"{HOUSE_CONTROL}: the house's own program, the video of each active table to review each week: 1 to "
            f"{HOUSE_PROGRAM_MAX_FOOTAGE_MINUTES} minutes; blank: {minutes}."
        )


class SpecialEventForm(SiteForm):
    """A special event of the current site; the service holds its rules (the API's words)."""

    name = forms.CharField(max_length=200)
    first_day = _date(label="First day the temporary tables are on the site")
    last_day = _date(label="Last day they are on the site")
    corrects = forms.ModelChoiceField(
        SpecialEvent.objects.all(), required=False, label="Corrects (leave empty for a new event)"
    )

    def scoped_queryset(self, name, queryset):
        if queryset.model is SpecialEvent:  # the site's events in force (a correction replaces one)
            return queryset.filter(site=self.site, corrected_by__isnull=True)
        return super().scoped_queryset(name, queryset)


class ClosureForm(BootstrapMixin, forms.Form):
    closed_on = _date()
    low_hold_reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label="Reason for the low hold")


class ReviewEntryForm(SiteForm):
    task = forms.ModelChoiceField(ReviewTask.objects.all(), label="Weekly review")
    gaming_date = _date(label="Gaming date reviewed")
    shift_started_at = _datetime(label="Shift reviewed: start")
    shift_ended_at = _datetime(label="Shift reviewed: end")
    footage_start_at = _datetime(label="Footage start")
    footage_end_at = _datetime(label="Footage end")
    reviewer = forms.ModelChoiceField(Employee.objects.all())
    findings = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, program=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["task"].queryset = ReviewTask.objects.filter(program=program).select_related("table")
