"""The audit format is frozen: every hash already written must verify for ever. The canonical
texts and hashes below were computed by the code before issue 36/37's faster verification
(commit ba30e75) and written here as literals, so a faster way of reading rows and events, or
of writing their canonical texts, must give exactly these bytes: a row's canonical values of
every kind of field the append-only tables hold (cents, dates, moments in any zone, decimals,
nulls, foreign keys, booleans, unicode and long texts, JSON, binary), an event's content on a
per-organization chain and on the legacy chain, and the same rows read back from the database."""

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from django.db import models, transaction

from approvals.models import GameApproval
from cage.models import ChipMovement
from cardroom.models import Role, Site
from compliance.models import Alert
from core.audit import LEGACY_CHAIN, canonical_content, canonical_json, chain_hash
from core.audit_rows import canonical_row, iter_canonical_rows, row_digest, row_plan
from core.audit_verify import verify_chain
from core.models import AuditEvent
from reports.models import ReportFile, ReportRun
from tests.factories import make_person

CHICAGO_SUMMER = timezone(timedelta(hours=-5))
LONG_TEXT = "Ligne de caisse n° 7 — " * 12  # longer than LONG_VALUE: kept as its SHA-256

FIELDS = [
    models.BigAutoField(primary_key=True),
    models.ForeignKey(Site, on_delete=models.PROTECT),
    models.ForeignKey(Site, on_delete=models.PROTECT, null=True),
    models.PositiveBigIntegerField(),
    models.BigIntegerField(),
    models.PositiveSmallIntegerField(),
    models.BooleanField(),
    models.BooleanField(),
    models.CharField(max_length=40),
    models.TextField(),
    models.TextField(),
    models.DateField(),
    models.DateField(null=True),
    models.DateTimeField(),
    models.DateTimeField(),
    models.DateTimeField(null=True),
    models.DecimalField(max_digits=12, decimal_places=2),
    models.JSONField(),
    models.JSONField(),
    models.BinaryField(),
]
NAMES = [
    "id", "site", "signed_by", "total_cents", "delta_cents", "table_number", "entered_late", "voided",
    "initials", "note", "reason", "gaming_date", "due_date", "prepared_at", "opened_at", "entered_at",
    "hold_ratio", "figures", "conditions", "pdf",
]  # fmt: skip
for _field, _name in zip(FIELDS, NAMES, strict=True):
    _field.set_attributes_from_name(_name)
VALUES = [
    41,
    7,
    None,
    123_456_789_012,
    -2_500,
    12,
    True,
    False,
    "JÉ",
    "Tray short 5 ¢ — recounted, café closed 🎲",
    LONG_TEXT,
    date(2026, 2, 28),
    None,
    datetime(2026, 3, 8, 1, 59, 59, 999_999, tzinfo=CHICAGO_SUMMER),
    datetime(2026, 11, 1, 6, 0, tzinfo=UTC),
    None,
    Decimal("12.5"),
    {"agp_cents": 150_000, "tables": [1, 2, 3], "note": "Überprüft", "rate": 0.125, "ok": True, "none": None},
    {"rows": [[n, f"ligne {n} — ok"] for n in range(30)]},  # JSON longer than LONG_VALUE
    b"%PDF-1.4 scratch",
]

ROW_TEXT = (
    '{"conditions":{"sha256":"1fb32b233821654b389da74d693a55c123043b8d3ba7b01d74d4e46c17c5c637"},"delta_c'
    'ents":-2500,"due_date":null,"entered_at":null,"entered_late":true,"figures":{"agp_cents":150000,"non'
    'e":null,"note":"\\u00dcberpr\\u00fcft","ok":true,"rate":0.125,"tables":[1,2,3]},"gaming_date":"2026-02'
    '-28","hold_ratio":"12.50","id":41,"initials":"J\\u00c9","note":"Tray short 5 \\u00a2 \\u2014 recounted,'
    ' caf\\u00e9 closed \\ud83c\\udfb2","opened_at":"2026-11-01T06:00:00+00:00","pdf":{"sha256":"da39b2722a1'
    '0c9f7471e895d711945649a8fbc9bd25c487d694fafbe1a6ecfb2"},"prepared_at":"2026-03-08T06:59:59.999999+00'
    ':00","reason":{"sha256":"eca256d3b3c00a5788c8fd026b7cb0a312d6adcb153552e8a515751f2edad134"},"signed_'
    'by_id":null,"site_id":7,"table_number":12,"total_cents":123456789012,"voided":false}'
)
ROW_DIGEST = "dc19daffad31627ab766ec76d3eb9cca8cfa7aeea211baed5fa4fa6cdbd6474b"


def test_a_rows_canonical_text_and_digest_are_as_written_before():
    canonical = canonical_row(FIELDS, VALUES, row_plan(FIELDS))
    assert canonical_json(canonical) == ROW_TEXT
    assert row_digest(canonical) == ROW_DIGEST


EVENT = {
    "seq": 1234,
    "occurred_at": datetime(2026, 3, 8, 1, 59, 59, 5, tzinfo=CHICAGO_SUMMER),
    "actor_id": 17,
    "actor_label": "zoë.o'brien",
    "organization_id": 3,
    "site_id": None,
    "action": "slip.signed",
    "object_type": "floor.slip",
    "object_id": "99",
    "before": {"status": "prepared", "lines": [{"value_cents": 2500, "quantity": 4}]},
    "after": {"status": "signed", "signed_by": {"employee": 5, "initials": "ÅB"}, "total_cents": 10_000},
    "chain": "org-3",
    "row_table": "accounting_slip",
    "row_pk": 99,
    "row_digest": "ab" * 32,
    "prev_hash": "cd" * 32,
}
EVENT_TEXT = (
    '{"action":"slip.signed","actor_id":17,"actor_label":"zo\\u00eb.o\'brien","after":{"signed_by":{"employ'
    'ee":5,"initials":"\\u00c5B"},"status":"signed","total_cents":10000},"before":{"lines":[{"quantity":4,'
    '"value_cents":2500}],"status":"prepared"},"chain":"org-3","object_id":"99","object_type":"floor.slip'
    '","occurred_at":"2026-03-08T06:59:59.000005+00:00","organization_id":3,"row_digest":"abababababababa'
    'babababababababababababababababababababababababab","row_pk":99,"row_table":"accounting_slip","seq":1'
    '234,"site_id":null}'
)
EVENT_HASH = "b3ce3feb901b2d2daa130c78d2992e5ae7b515895c3a05fdd44d667a77317b48"
LEGACY_TEXT = (
    '{"action":"slip.signed","actor_id":17,"actor_label":"zo\\u00eb.o\'brien","after":{"signed_by":{"employ'
    'ee":5,"initials":"\\u00c5B"},"status":"signed","total_cents":10000},"before":{"lines":[{"quantity":4,'
    '"value_cents":2500}],"status":"prepared"},"object_id":"99","object_type":"floor.slip","occurred_at":'
    '"2026-03-08T06:59:59.000005+00:00","organization_id":3,"seq":1234,"site_id":null}'
)
LEGACY_HASH = "766a29c73b75af6f768b154e5bf0c2693a412b7b0e12db4de4f5b5066f061180"


def test_an_events_content_and_hash_are_as_written_before():
    assert canonical_content(EVENT) == EVENT_TEXT
    assert chain_hash(EVENT["prev_hash"], EVENT) == EVENT_HASH


def test_a_legacy_events_content_and_hash_leave_the_row_fields_out_as_before():
    legacy = {**EVENT, "chain": LEGACY_CHAIN, "row_table": "", "row_pk": None, "row_digest": ""}
    assert canonical_content(legacy) == LEGACY_TEXT
    assert chain_hash(legacy["prev_hash"], legacy) == LEGACY_HASH


# Rows written and read back: the database's own types (SQLite's texts and integers, PostgreSQL's
# jsonb, bytea and timestamptz) come back to the same canonical text. The ids the database gives
# are filled in; everything else is the literal the earlier code read. (An approval's rules_of_play,
# a column added since, is in a new row's text; the events of rows written before it do not hold it
# and are not checked for it: core.audit_rows.)
APPROVAL_TEXT = (
    '{"agency":"ND AG","approved_on":"2026-01-02","conditions":{"agp_cents":150000,"none":null,"note":"\\u'
    '00dcberpr\\u00fcft","ok":true,"rate":0.125,"tables":[1,2,3]},"conditions_text":{"sha256":"eca256d3b3c'
    '00a5788c8fd026b7cb0a312d6adcb153552e8a515751f2edad134"},"game_name":"Blackjack \\u2014 \\u00d1 edition'
    '","id":$pk$,"internal_controls_required":false,"jurisdiction":"ND","manufacturer":"","organization_i'
    'd":$org$,"recorded_at":"2026-01-02T14:30:00.250000+00:00","recorded_by_id":$person$,"rules_of_play":'
    '[],"shuffler_must_be_approved":true,"submission_number":"S-1","supersedes_id":null}'
)
ALERT_TEXT = (
    '{"action_required":"Deposit the cash \\u2014 today.","citation":"ND 99-01.3-08-16(2)","due_date":null'
    ',"figures":{"sha256":"1fb32b233821654b389da74d693a55c123043b8d3ba7b01d74d4e46c17c5c637"},"id":$pk$,"'
    'opened_at":"2026-03-01T00:00:00+00:00","organization_id":$org$,"period_end":"2026-03-01","period_key'
    '":"2026-02-28","period_start":"2026-02-28","rule":"deposit_late","site_id":$site$,"subject":"","titl'
    'e":"D\\u00e9p\\u00f4t tardif"}'
)
MOVEMENT_TEXT = (
    '{"id":$pk$,"initials":"AB","kind":"receipt","note":"Received \\ud83c\\udfb2 40 \\u00d7 $25","occurred_o'
    'n":"2026-12-31","organization_id":$org$,"recorded_at":"2027-01-01T04:59:59+00:00","recorded_by_id":$'
    'person$,"reference":"INV-\\u00fc-1","total_cents":9007199254740993}'
)
REPORT_TEXT = (
    '{"audit_chain":"","audit_hash":"","audit_seq":null,"data_sha256":"2222222222222222222222222222222222'
    '222222222222222222222222222222","generated_at":"2026-04-01T00:00:01+00:00","generated_by":"zo\\u00eb"'
    ',"id":$pk$,"parameters":{"quarter":"2026Q1","site":"Elks Lodge"},"pdf":{"sha256":"da39b2722a10c9f747'
    '1e895d711945649a8fbc9bd25c487d694fafbe1a6ecfb2"},"pdf_sha256":"1111111111111111111111111111111111111'
    '111111111111111111111111111","run_id":$run$,"table":{"header":["Day","AGP"],"rows":[["2026-01-01","1'
    '.00"]]}}'
)


def _filled(text: str, ids: dict) -> str:
    for name, value in ids.items():
        text = text.replace(f"${name}$", str(value))
    return text


@pytest.mark.django_db
def test_rows_read_back_from_the_database_have_the_canonical_texts_written_before(site):
    org = site.organization
    person = make_person(org, Role.GAMING_MANAGER, site)
    with transaction.atomic():
        approval = GameApproval.objects.create(
            organization=org, jurisdiction="ND", game_name="Blackjack — Ñ edition", agency="ND AG",
            approved_on=date(2026, 1, 2), submission_number="S-1", conditions=VALUES[17], conditions_text=LONG_TEXT,
            shuffler_must_be_approved=True, internal_controls_required=False, recorded_by=person,
            recorded_at=datetime(2026, 1, 2, 9, 30, 0, 250_000, tzinfo=CHICAGO_SUMMER),
        )  # fmt: skip
        alert = Alert.objects.create(
            rule="deposit_late", citation="ND 99-01.3-08-16(2)", title="Dépôt tardif", organization=org, site=site,
            period_key="2026-02-28", period_start=date(2026, 2, 28), period_end=date(2026, 3, 1),
            figures=VALUES[18], action_required="Deposit the cash — today.", due_date=None,
            opened_at=datetime(2026, 3, 1, 0, 0, tzinfo=UTC),
        )  # fmt: skip
        movement = ChipMovement.objects.create(
            organization=org, kind="receipt", occurred_on=date(2026, 12, 31), reference="INV-ü-1",
            note="Received 🎲 40 × $25", recorded_at=datetime(2026, 12, 31, 23, 59, 59, tzinfo=CHICAGO_SUMMER),
            recorded_by=person, initials="AB", total_cents=9_007_199_254_740_993,
        )  # fmt: skip
        run = ReportRun.objects.create(
            kind="quarterly", organization=org, site=site, start=date(2026, 1, 1), end=date(2026, 3, 31),
            period_label="2026Q1", requested_by=person.user, requested_at=datetime(2026, 4, 1, tzinfo=UTC),
        )  # fmt: skip
        report = ReportFile.objects.create(
            run=run, generated_at=datetime(2026, 4, 1, 0, 0, 1, tzinfo=UTC), generated_by="zoë",
            parameters={"quarter": "2026Q1", "site": "Elks Lodge"}, pdf=VALUES[19], pdf_sha256="1" * 64,
            data_sha256="2" * 64, table={"header": ["Day", "AGP"], "rows": [["2026-01-01", "1.00"]]},
        )  # fmt: skip
    ids = {"site": site.pk, "org": org.pk, "person": person.pk, "user": person.user_id, "run": run.pk}
    for row, text in [(approval, APPROVAL_TEXT), (alert, ALERT_TEXT), (movement, MOVEMENT_TEXT), (report, REPORT_TEXT)]:
        model = type(row)
        (pk, canonical), *_ = iter_canonical_rows(model, 100, {"pk": row.pk})
        assert pk == row.pk
        assert canonical_json(canonical) == _filled(text, {**ids, "pk": row.pk})
        event = AuditEvent.objects.get(row_table=model._meta.db_table, row_pk=row.pk)
        assert canonical == event.after and row_digest(canonical) == event.row_digest
    assert verify_chain().ok
