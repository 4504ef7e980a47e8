from django import forms

from core.forms import BookDateField, BootstrapMixin
from core.periods import Quarter


class StepForm(BootstrapMixin, forms.Form):
    """The documentation of an alert: what was done, and whom was contacted when (if anyone)."""

    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Documentation",
        help_text="What was done about it: what was corrected or recounted, why the figure stands, or whom you "
        "contacted and when.",
    )
    contacted_person = forms.CharField(required=False, label="Person contacted (if any)")
    contacted_on = BookDateField(required=False, label="Date contacted", widget=forms.DateInput(attrs={"type": "date"}))

    def documentation(self) -> dict:
        data = {k: self.cleaned_data.get(k) for k in ("contacted_person", "contacted_on") if self.cleaned_data.get(k)}
        return {k: str(v) for k, v in data.items()}


class ResolveForm(StepForm):
    """The one resolve action: the documentation is asked for on the same form. The service
    requires it (compliance.services.resolve_alert_with_documentation); the browser's
    `required` attribute only saves a round trip."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["note"].widget.attrs["required"] = True
        self.fields["note"].label = "Documentation that resolves this alert"


def recent_quarters(today, count: int = 6) -> list[Quarter]:
    quarters = [Quarter.containing(today)]
    while len(quarters) < count:
        quarters.append(quarters[-1].previous())
    return quarters


class RunForm(BootstrapMixin, forms.Form):
    quarter = forms.ChoiceField(label="Quarter")

    def __init__(self, *args, today, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(q), str(q)) for q in recent_quarters(today)]
        self.fields["quarter"].choices = choices
        self.fields["quarter"].initial = choices[0][0]
