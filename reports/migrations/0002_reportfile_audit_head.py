"""The organization's audit chain head at generation, printed in the report's footer."""

from django.db import migrations, models

import core.appendonly


class Migration(migrations.Migration):

    dependencies = [
        ('reports', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='reportfile',
            name='audit_chain',
            field=models.CharField(blank=True, default='', max_length=24),
        ),
        migrations.AddField(
            model_name='reportfile',
            name='audit_hash',
            field=models.CharField(blank=True, default='', max_length=64),
        ),
        migrations.AddField(
            model_name='reportfile',
            name='audit_seq',
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        # SQLite rebuilds the table to add a column with a default, dropping its triggers.
        core.appendonly.AppendOnly("reportfile"),
    ]
