# Written by hand (issue 34).
"""The content types of the moved models change app label from cardroom to core, keeping
their ids, so the permissions and admin history that point at them keep working."""

from django.db import migrations

from core.content_types import relabel

MODELS = ['auditevent', 'auditcheckpoint', 'idempotentrequest']


def forwards(apps, schema_editor):
    relabel(apps.get_model('contenttypes', 'ContentType'), 'cardroom', 'core', MODELS)


def backwards(apps, schema_editor):
    relabel(apps.get_model('contenttypes', 'ContentType'), 'core', 'cardroom', MODELS)


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('core', '0001_initial'),
        ('cardroom', '0015_platform_records_move_to_core'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
