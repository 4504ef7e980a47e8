"""The chain covers the records (core.audit_rows): every append-only row that exists
before rows were covered gets a `row.baseline` event in its organization's chain, holding the
row's values and digest as they are at this upgrade. New rows get `row.created` events when
they are inserted. Depends on every app with append-only tables, so all of them exist.

Reversing removes nothing (events are append-only); reversing 0003 afterwards would fail on
a database with per-organization chains, as it should.
"""

from django.db import migrations

from core.audit_rows import record_baseline


def baseline(apps, schema_editor):
    record_baseline(apps.get_model('cardroom', 'AuditEvent'), apps.get_models(), schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('cardroom', '0003_audit_chain_per_organization'),
        ('accounting', '0003_quarter_filing'),
        ('cage', '0001_initial'),
        ('compliance', '0002_seed_thresholds_and_append_only'),
        ('counts', '0001_initial'),
        ('reports', '0002_reportfile_audit_head'),
        ('surveillance', '0001_initial'),
    ]

    operations = [
        migrations.RunPython(baseline, migrations.RunPython.noop),
    ]
