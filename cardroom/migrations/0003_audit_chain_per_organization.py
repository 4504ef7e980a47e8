"""One audit chain per organization (core.audit).

Events recorded before this migration form the frozen `legacy` chain: the new column `chain`
is filled with "legacy" by the column's default when it is added (no UPDATE of an event: the
append-only triggers are never bypassed, and no event's content or hash changes). `seq` is
then unique per chain instead of globally. On SQLite, altering the table rebuilds it, which
drops its triggers: `AppendOnly` puts them back (and refreshes the PostgreSQL guard function,
which now honours a lifted guard only for a superuser or the maintenance role).
"""

from django.conf import settings
from django.db import migrations, models

import core.appendonly


class Migration(migrations.Migration):

    dependencies = [
        ('cardroom', '0002_table_disclosure_rules'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='auditevent',
            options={'ordering': ['chain', 'seq']},
        ),
        migrations.AddField(
            model_name='auditevent',
            name='chain',
            field=models.CharField(default='legacy', max_length=24),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='auditevent',
            name='row_digest',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.AddField(
            model_name='auditevent',
            name='row_pk',
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='auditevent',
            name='row_table',
            field=models.CharField(blank=True, default='', max_length=63),
        ),
        migrations.AlterField(
            model_name='auditevent',
            name='seq',
            field=models.PositiveBigIntegerField(),
        ),
        migrations.AddConstraint(
            model_name='auditevent',
            constraint=models.UniqueConstraint(fields=('chain', 'seq'), name='audit_event_seq_unique_per_chain'),
        ),
        migrations.AddConstraint(
            model_name='auditevent',
            constraint=models.UniqueConstraint(fields=('row_table', 'row_pk'), name='audit_event_one_per_row'),
        ),
        core.appendonly.AppendOnly("auditevent"),
    ]
