# Written by hand (issue 19).
"""The content types of the moved models change app label from accounting to floor, keeping
their ids, so the permissions and admin history that point at them keep working."""

from django.db import migrations

MODELS = [
    'gamingday',
    'gamingdayclose',
    'dealershift',
    'tableinventory',
    'tableinventoryline',
    'slipbook',
    'slip',
    'slipline',
    'slipstep',
]


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
    _relabel(apps, 'accounting', 'floor')


def backwards(apps, schema_editor):
    _relabel(apps, 'floor', 'accounting')


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('floor', '0001_initial'),
        ('accounting', '0004_custody_moves_to_floor'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
