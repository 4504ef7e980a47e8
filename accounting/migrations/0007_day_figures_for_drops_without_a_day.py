"""A DayFigures row (empty, to be computed) for every date a drop was placed for without a
gaming day, placed before snapshots existed: the snapshots' reads find such dates among the
rows (accounting.day_figures._read); later drops get theirs from their own write."""

import uuid

from django.db import migrations
from django.db.models import Exists, OuterRef


def mark_drop_dates(apps, schema_editor):
    Drop = apps.get_model("counts", "Drop")
    GamingDay = apps.get_model("floor", "GamingDay")
    DayFigures = apps.get_model("accounting", "DayFigures")
    day = GamingDay.objects.filter(site_id=OuterRef("site_id"), gaming_date=OuterRef("gaming_date"))
    keys = Drop.objects.exclude(Exists(day)).order_by().values_list("site_id", "gaming_date").distinct()
    rows = [DayFigures(site_id=s, gaming_date=d, token=uuid.uuid4().hex) for s, d in keys]
    DayFigures.objects.bulk_create(rows, ignore_conflicts=True, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("accounting", "0006_day_figures"),
        ("counts", "0003_entered_at_late_entry"),
        ("floor", "0004_entered_at_late_entry"),
    ]

    operations = [migrations.RunPython(mark_drop_dates, migrations.RunPython.noop)]
