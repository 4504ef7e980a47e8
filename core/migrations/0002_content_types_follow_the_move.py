# Written by hand (issue 34).
"""The content types of the moved models change app label from cardroom to core, keeping
their ids, so the permissions and admin history that point at them keep working."""

from django.db import migrations

MODELS = ['auditevent', 'auditcheckpoint', 'idempotentrequest']


def _relabel(apps, old: str, new: str) -> None:
    content_types = apps.get_model('contenttypes', 'ContentType').objects
    for model in MODELS:
        moving = content_types.filter(app_label=old, model=model).first()
        if moving is None:
            continue  # a database that never created it: the new one is made after migrating
        # One already made under the new label (by a migrate run in between) is a duplicate:
        # the old one, whose id the permissions and admin history hold, wins.
        content_types.filter(app_label=new, model=model).delete()
        moving.app_label = new
        moving.save(update_fields=['app_label'])


def forwards(apps, schema_editor):
    _relabel(apps, 'cardroom', 'core')


def backwards(apps, schema_editor):
    _relabel(apps, 'core', 'cardroom')


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('core', '0001_initial'),
        ('cardroom', '0015_platform_records_move_to_core'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
