"""The state supervisor's forms: they parse; the registry's services judge and write
(`services.register_licensee`, `services.revoke_credential`)."""

from django import forms

from core.forms import BookDateField, BootstrapMixin, say_when_blank

from .models import Licensee
from .services import HOUSE


class RegisterLicenseeForm(BootstrapMixin, forms.ModelForm):
    """A licensee of the supervisor's own agency, as `manage.py registry_licensee` registers one:
    its name, its licence number and the first day of the first quarter whose return the agency
    expects (the model's field rules: lengths, none blank)."""

    class Meta:
        model = Licensee
        fields = ["name", "licence_number", "expected_from"]
        field_classes = {"expected_from": BookDateField}
        labels = {
            "name": "Name",
            "licence_number": "Licence number",
            "expected_from": "Returns expected from",
        }
        help_texts = {
            "licence_number": "Identifies the licensee at the agency; the packages it files name it.",
            "expected_from": "A day of the first quarter whose return the agency expects of it: returns of earlier "
            "quarters are received, never judged late or missing.",
        }


class RevokeCredentialForm(BootstrapMixin, forms.Form):
    """The confirmation a revocation asks: it cannot be undone."""

    confirm = forms.BooleanField(
        label="Revoke it: every request made with it is refused from now on, and a revoked credential is never "
        "reinstated (issue a new one)."
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        say_when_blank(
            self,
            {"confirm": f"{HOUSE}: tick the box to confirm the revocation; a revoked credential is never reinstated."},
        )
