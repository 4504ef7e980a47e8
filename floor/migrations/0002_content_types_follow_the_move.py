# Written by hand (issue 19).
"""The content types of the moved models change app label from accounting to floor, keeping
their ids, so the permissions and admin history that point at them keep working."""

from django.db import migrations

from core.content_types import relabel

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


def forwards(apps, schema_editor):
    relabel(apps.get_model('contenttypes', 'ContentType'), 'accounting', 'floor', MODELS)


def backwards(apps, schema_editor):
    relabel(apps.get_model('contenttypes', 'ContentType'), 'floor', 'accounting', MODELS)


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('floor', '0001_initial'),
        ('accounting', '0004_custody_moves_to_floor'),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
