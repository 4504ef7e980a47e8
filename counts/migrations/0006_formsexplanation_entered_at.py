# Issue 36: a forms explanation keeps its entry time beside the time it was explained.

from django.db import migrations, models

from core.appendonly import KeepAppendOnly
from core.moments import backfill_entered_at as backfill


def backfill_entered_at(app_label, model_name, occurred_field, append_only=True):
    """This migration's step: its historical model, read from the migration state, backfilled
    (core.moments.backfill_entered_at)."""

    def forwards(apps, schema_editor):
        backfill(apps.get_model(app_label, model_name), occurred_field, schema_editor, append_only)

    return forwards


# The record keeps when it happened and when it was entered (core.moments). Rows from before
# were dated when they were entered: entered_at = that time. Adding a column with a default
# rebuilds the table on SQLite, so the append-only triggers are installed again.
OCCURRED = [('formsexplanation', 'explained_at')]


class Migration(migrations.Migration):

    dependencies = [
        ('counts', '0005_merge_20261128_1543'),
    ]

    operations = [
        *[KeepAppendOnly(name) for name, _ in OCCURRED],
        migrations.AddField(
            model_name='formsexplanation',
            name='entered_at',
            field=models.DateTimeField(blank=True, editable=False, help_text='When the record was entered (the occurrence time is its *_at).', null=True),
        ),
        migrations.AddField(
            model_name='formsexplanation',
            name='entered_late',
            field=models.BooleanField(default=False, editable=False, help_text="Entered past the site's late entry threshold."),
        ),
        *[KeepAppendOnly(name) for name, _ in OCCURRED],
        *[migrations.RunPython(backfill_entered_at('counts', name, field), migrations.RunPython.noop) for name, field in OCCURRED],
    ]
