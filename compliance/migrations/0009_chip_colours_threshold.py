from django.db import migrations

CODES = {"chips.gp_average_cents"}


def seed(apps, schema_editor):
    """ND 99-01.3-08-03(2): the gross proceeds level at which the chips must meet 08-03(3)."""
    from compliance.thresholds import add_seed_rows

    add_seed_rows(apps.get_model("compliance", "Threshold"), CODES)


class Migration(migrations.Migration):
    dependencies = [("compliance", "0008_low_table_thresholds")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
