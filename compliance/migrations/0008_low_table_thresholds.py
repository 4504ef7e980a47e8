from django.db import migrations

CODES = {"low_table.minimum_ceiling_cents", "low_table.grace_minutes"}


def seed(apps, schema_editor):
    """ND 99-01.3-08-09(1): the low table's minimum ceiling and the grace after it closes."""
    from compliance.thresholds import add_seed_rows

    add_seed_rows(apps.get_model("compliance", "Threshold"), CODES)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0007_drop_indexes_a_composite_index_leads_with")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
