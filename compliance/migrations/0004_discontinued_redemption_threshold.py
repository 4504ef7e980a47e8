from django.db import migrations


def seed(apps, schema_editor):
    """ND 99-01.3-08-06(2): the 30-day redemption window after twenty-one stops at a site."""
    from compliance.thresholds import add_seed_rows

    add_seed_rows(apps.get_model("compliance", "Threshold"), {"discontinued.redeem_days"})


def house_control(apps, schema_editor):
    """The reminder lead time is the product's own control, not a rule: cite it so."""
    Threshold = apps.get_model("compliance", "Threshold")
    Threshold.objects.filter(code="reminder.days_before_due", citation="house policy").update(citation="House control")


class Migration(migrations.Migration):
    dependencies = [("compliance", "0003_alter_alertstep_note")]

    operations = [
        migrations.RunPython(seed, migrations.RunPython.noop),
        migrations.RunPython(house_control, migrations.RunPython.noop),
    ]
