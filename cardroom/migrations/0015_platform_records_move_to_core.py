# Written by hand (issue 34).
"""The platform's records (audit events, audit checkpoints, idempotent requests) leave
cardroom's state; their tables stay (they are `core`'s now, core 0001, under the same names).
Nothing happens in the database."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('cardroom', '0014_table_double_after_split_default'),
        ('core', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name='idempotentrequest', name='user'),
                migrations.DeleteModel(name='AuditCheckpoint'),
                migrations.DeleteModel(name='AuditEvent'),
                migrations.DeleteModel(name='IdempotentRequest'),
            ],
            database_operations=[],
        ),
    ]
