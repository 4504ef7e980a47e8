"""The registry API's own OpenAPI schema, served at /registry/api/v1/schema/: the agency's API
is documented apart from the organization's (/api/schema/), which leaves it out (views with
`schema_document = "registry"`, core.api_schema.organization_document). The shapes below
describe what registry.api answers; the licensee's credential is its security scheme."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.hooks import postprocess_schema_enums
from drf_spectacular.utils import extend_schema_field
from drf_spectacular.views import SpectacularAPIView
from rest_framework import serializers

from core import filing_package
from core.api import DateField, Input

from .models import Licensee

DOCUMENT = "registry"


def registry_document(endpoints, **kwargs):
    """Preprocessing hook: only the registry's endpoints."""
    return [e for e in endpoints if getattr(getattr(e[3], "cls", None), "schema_document", None) == DOCUMENT]


class LicenseeCredentialScheme(OpenApiAuthenticationExtension):
    target_class = "registry.api.LicenseeAuthentication"
    name = "licenseeCredential"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Licensee <credential>`: the secret the agency issued (only its SHA-256 is kept; "
            "a revoked credential answers 401).",
        }


STRICT_BODIES = {"LicenseeInRequest"}  # read as `core.api.Input` reads: an unknown field is a 400


def strict_bodies(result, generator, request, public):
    """Postprocessing hook: the enums, then `additionalProperties: false` on the bodies read strictly.
    The licensee's bodies (a package, heads, alerts) keep what else they say, as sent."""
    result = postprocess_schema_enums(result, generator, request=request, public=public)
    for name in STRICT_BODIES & set(result.get("components", {}).get("schemas", {})):
        result["components"]["schemas"][name]["additionalProperties"] = False
    return result


class RegistrySchemaView(SpectacularAPIView):
    custom_settings = {
        "TITLE": "State registry API",
        "DESCRIPTION": (
            "The regulator's registry: licensees file quarterly packages (cardroom.filing/1, with an "
            "Idempotency-Key) and their quarterly PDFs, send their audit chains' heads, and read their own "
            "receipts; the agency's staff read every licensee of the agency's jurisdiction."
        ),
        "VERSION": "1",
        "PREPROCESSING_HOOKS": ["registry.api_schema.registry_document"],
        "POSTPROCESSING_HOOKS": ["registry.api_schema.strict_bodies"],
    }


# --- What the API reads and answers ------------------------------------------------------------------


class PdfIn(serializers.Serializer):
    pdf_sha256 = serializers.RegexField(r"^[0-9a-f]{64}$", help_text="One of the package's reports' pdf_sha256.")
    content_base64 = serializers.CharField(help_text="The PDF's bytes, base64.")


class FilingIn(serializers.Serializer):
    package = serializers.JSONField(help_text="A cardroom.filing/1 package (core.filing_package).")
    pdfs = PdfIn(many=True, required=False, help_text="The PDFs of reports the package lists (at most 3).")


class ReceiptOut(serializers.Serializer):
    receipt_number = serializers.CharField()
    received_at = serializers.DateTimeField()
    package_sha256 = serializers.CharField()
    receipt_sha256 = serializers.CharField(help_text="The receipt's place in the agency's chain of receipts.")
    agency = serializers.CharField()
    quarter = serializers.CharField()
    site = serializers.IntegerField()
    amends = serializers.CharField(allow_null=True)


class LicenseeRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    licence_number = serializers.CharField()


class FilingOut(serializers.Serializer):
    receipt_number = serializers.CharField()
    received_at = serializers.DateTimeField()
    package_sha256 = serializers.CharField()
    receipt_sha256 = serializers.CharField()
    site = serializers.IntegerField()
    site_name = serializers.CharField()
    quarter = serializers.CharField()
    amends = serializers.CharField(allow_null=True)
    licensee = LicenseeRef(required=False, help_text="For the agency's staff only.")


class DocumentOut(serializers.Serializer):
    kind = serializers.CharField()
    pdf_sha256 = serializers.CharField()
    size_bytes = serializers.IntegerField()
    url = serializers.CharField()


class FilingDetailOut(FilingOut):
    package = serializers.JSONField()
    documents = DocumentOut(many=True)


class AnchorIn(serializers.Serializer):
    # The rules `core.filing_package.anchor_problems` holds a head to, stated.
    chain = serializers.RegexField(filing_package.CHAIN.pattern, help_text="The chain's name, like org-3.")
    seq = serializers.IntegerField(min_value=1, max_value=filing_package.MAX_REF)
    hash = serializers.RegexField(r"^[0-9a-f]{64}$")
    head_at = serializers.CharField()


class AnchorsIn(serializers.Serializer):
    anchors = AnchorIn(many=True)


class AnchorOut(AnchorIn):
    licensee = serializers.IntegerField()
    received_at = serializers.DateTimeField()


class AnchorsReceivedOut(serializers.Serializer):
    stored = serializers.IntegerField()
    already_held = serializers.IntegerField()


class SiteQuarterOut(serializers.Serializer):
    site = serializers.CharField()
    quarter = serializers.CharField()
    due = serializers.DateField(allow_null=True)
    receipt_number = serializers.CharField(allow_null=True)


class SiteRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class AlertSiteIn(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class AlertIn(serializers.Serializer):
    id = serializers.IntegerField(help_text="The alert's id in the licensee's deployment.")
    site = AlertSiteIn()
    rule = serializers.CharField()
    citation = serializers.CharField()
    title = serializers.CharField()
    period_key = serializers.CharField()
    table = serializers.CharField(required=False, allow_blank=True, help_text="The table it concerns, e.g. 'Table 3'.")
    period = serializers.CharField(required=False, allow_blank=True, help_text="Its period in words.")
    subject = serializers.CharField(
        required=False, allow_blank=True, help_text="Its slip or drop box, e.g. 'Fill slip 12'."
    )
    opened_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)


class AlertsIn(serializers.Serializer):
    alerts = AlertIn(many=True)


class AlertOut(serializers.Serializer):
    licensee = serializers.IntegerField()
    alert = serializers.IntegerField()
    site = serializers.IntegerField()
    site_name = serializers.CharField()
    rule = serializers.CharField()
    citation = serializers.CharField()
    title = serializers.CharField()
    period_key = serializers.CharField()
    table = serializers.CharField(allow_blank=True)
    period = serializers.CharField(allow_blank=True)
    subject = serializers.CharField(allow_blank=True)
    opened_at = serializers.DateTimeField()
    state = serializers.ChoiceField(choices=["open", "closed"])
    resolved_at = serializers.DateTimeField(allow_null=True)
    received_at = serializers.DateTimeField()


class LicenseeOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    licence_number = serializers.CharField()
    sites = SiteRef(many=True)
    filings = serializers.IntegerField()
    anchors = serializers.IntegerField()
    anchor_conflicts = serializers.IntegerField()
    alerts_open = serializers.IntegerField()
    alerts_closed = serializers.IntegerField()
    last_anchor_at = serializers.DateTimeField(allow_null=True)
    expected_from_quarter = serializers.CharField(
        help_text="The first quarter whose return the agency expects of the licensee: late and missing "
        "returns are counted from it; a return of an earlier quarter is received, never late."
    )
    late = SiteQuarterOut(many=True)
    missing = SiteQuarterOut(many=True)


class LicenseePageOut(serializers.Serializer):
    results = LicenseeOut(many=True)
    offset = serializers.IntegerField()
    limit = serializers.IntegerField()


class CredentialOut(serializers.Serializer):
    id = serializers.IntegerField()
    licensee = serializers.IntegerField()
    prefix = serializers.CharField()
    secret = serializers.CharField(help_text="Shown in this answer only.")


class CredentialRowOut(serializers.Serializer):
    id = serializers.IntegerField()
    prefix = serializers.CharField(help_text="The secret's first characters, as the licensee's page lists it.")
    issued_at = serializers.DateTimeField()
    issued_by = serializers.CharField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    revoked_by = serializers.CharField(help_text="Empty while the credential is live.")
    last_used_at = serializers.DateTimeField(
        allow_null=True, help_text="When a request last authenticated with it, to the hour; null if never."
    )


class FormText(serializers.CharField):
    """Text the supervisor's page judges (`RegisterLicenseeForm`: a blank, a length, in the page's
    words): read here only as text, untrimmed; its length `most` is the schema's maxLength, and the
    form refuses a longer one (DRF's own check would say it in other words than the page's)."""

    def __init__(self, *, most: int, **kwargs):
        super().__init__(allow_blank=True, trim_whitespace=False, **kwargs)
        # Documented, and checked by the form (at most `most`; a blank refused): no validator in DRF's words.
        extend_schema_field({"type": "string", "maxLength": most})(self)


class LicenseeIn(Input):
    """A licensee to register: these fields only (another is a 400 naming it); a field refused is a
    400 keyed by it, in the words of the supervisor's page."""

    # Read as the organization's API reads its input (core.api.Input: an unknown field, a value that
    # is no text, a required one left out, each refused naming it); then the page's form judges the
    # values (api.LicenseesView.post).

    name = FormText(most=Licensee._meta.get_field("name").max_length)
    licence_number = FormText(
        most=Licensee._meta.get_field("licence_number").max_length,
        help_text="Identifies the licensee at the agency, whatever its case; the packages it files name it.",
    )
    expected_from = DateField(
        required=False,
        help_text="A day of the first quarter whose return the agency expects of it; the first of this month if "
        "not given.",
    )


class RevokedOut(serializers.Serializer):
    id = serializers.IntegerField()
    revoked_at = serializers.DateTimeField()


class DealerRowOut(serializers.Serializer):
    identifier = serializers.CharField()
    name = serializers.CharField()
    licensee = serializers.CharField()
    licence_number = serializers.CharField()
    site = serializers.CharField()
    quarter = serializers.CharField()
    game = serializers.CharField()
    receipt_number = serializers.CharField(help_text="The latest return of that site and quarter, which states it.")
    shifts = serializers.IntegerField()
    separable_shifts = serializers.IntegerField()
    drop_cents = serializers.IntegerField()
    gross_proceeds_cents = serializers.IntegerField()
    prizes_cents = serializers.IntegerField()
    agp_cents = serializers.IntegerField()
    # The keys are the package's at every agency; the words are the pack's (the dealer view is
    # offered only where a pack names a state-issued identifier: never North Dakota's words there).
    hold_ratio = serializers.CharField(
        allow_null=True, help_text="agp_cents / gross_proceeds_cents (the win over the drop), a decimal string."
    )


class DealerTotalOut(serializers.Serializer):
    drop_cents = serializers.IntegerField()
    gross_proceeds_cents = serializers.IntegerField()
    agp_cents = serializers.IntegerField()
    hold_ratio = serializers.CharField(allow_null=True)


class DealerViewOut(serializers.Serializer):
    offered = serializers.BooleanField(help_text="False: the agency's pack names no state-issued identifier.")
    reason = serializers.CharField(help_text="Why the view is not offered (empty when it is).")
    identifier = serializers.CharField(allow_null=True)
    results = DealerRowOut(many=True)
    total = DealerTotalOut(allow_null=True)


def page_of(serializer_class, name: str):
    """A limit/offset page (core.api_filters.Pagination) of `serializer_class` rows."""
    return type(
        name,
        (serializers.Serializer,),
        {
            "count": serializers.IntegerField(),
            "next": serializers.CharField(allow_null=True),
            "previous": serializers.CharField(allow_null=True),
            "results": serializer_class(many=True),
        },
    )


FilingPageOut = page_of(FilingOut, "FilingPageOut")
AnchorPageOut = page_of(AnchorOut, "AnchorPageOut")
AlertPageOut = page_of(AlertOut, "AlertPageOut")
