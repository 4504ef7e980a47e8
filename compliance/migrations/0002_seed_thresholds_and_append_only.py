from django.db import migrations

import core.appendonly


def seed(apps, schema_editor):
    from compliance.thresholds import add_seed_rows

    add_seed_rows(apps.get_model("compliance", "Threshold"))


class Migration(migrations.Migration):
    dependencies = [("compliance", "0001_initial")]

    operations = [
        migrations.RunPython(seed, migrations.RunPython.noop),
        core.appendonly.AppendOnly("alert"),
        core.appendonly.AppendOnly("alertstep"),
        core.appendonly.AppendOnly("notification"),
    ]
