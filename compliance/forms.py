from django import forms

from cardroom.forms import BookDateField, BootstrapMixin


class StepForm(BootstrapMixin, forms.Form):
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text="For example: whom you contacted at the attorney general's office and when, "
        "or the documented reason for the low hold.",
    )
    contacted_person = forms.CharField(required=False, label="Person contacted (if any)")
    contacted_on = BookDateField(required=False, label="Date contacted", widget=forms.DateInput(attrs={"type": "date"}))

    def documentation(self) -> dict:
        data = {k: self.cleaned_data.get(k) for k in ("contacted_person", "contacted_on") if self.cleaned_data.get(k)}
        return {k: str(v) for k, v in data.items()}


class RunForm(BootstrapMixin, forms.Form):
    quarter = forms.CharField(help_text="For example 2026Q3")
