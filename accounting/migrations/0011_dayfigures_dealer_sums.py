from django.db import migrations, models


class Migration(migrations.Migration):
    """A derived cache's new field (issue 37): the snapshots of an older day_figures.VERSION are
    computed again, this field with them, on their next read."""

    dependencies = [
        ("accounting", "0010_merge_20261128_1543"),
    ]

    operations = [
        migrations.AddField(
            model_name="dayfigures",
            name="dealer_sums",
            field=models.JSONField(null=True),
        ),
    ]
