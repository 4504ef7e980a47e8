from django.db import migrations

CODES = {"chips.gp_average_cents"}


def seed(apps, schema_editor):
    """ND 99-01.3-08-03(2): the gross proceeds level at which the chips must meet 08-03(3)."""
    from compliance.thresholds import SEED

    Threshold = apps.get_model("compliance", "Threshold")
    for code, value, unit, citation, summary, effective_from in SEED:
        if code in CODES:
            Threshold.objects.get_or_create(
                code=code, effective_from=effective_from,
                defaults={"value": value, "unit": unit, "citation": citation, "summary": summary},
            )


class Migration(migrations.Migration):
    dependencies = [("compliance", "0008_low_table_thresholds")]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
