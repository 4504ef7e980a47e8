from django.db import migrations

import core.appendonly


def seed(apps, schema_editor):
    from compliance.thresholds import SEED

    Threshold = apps.get_model("compliance", "Threshold")
    for code, value, unit, citation, summary, effective_from in SEED:
        Threshold.objects.get_or_create(
            code=code, effective_from=effective_from,
            defaults={"value": value, "unit": unit, "citation": citation, "summary": summary},
        )


class Migration(migrations.Migration):
    dependencies = [("compliance", "0001_initial")]

    operations = [
        migrations.RunPython(seed, migrations.RunPython.noop),
        core.appendonly.AppendOnly("alert"),
        core.appendonly.AppendOnly("alertstep"),
        core.appendonly.AppendOnly("notification"),
    ]
