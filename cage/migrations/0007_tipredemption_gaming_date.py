from django.db import migrations, models

from core.appendonly import KeepAppendOnly, drop_trigger_sql, trigger_sql

# A tip redemption keeps the gaming date of the books it is counted in: its declaration's while
# that day's books are open, else the day it is paid on (cage.services.tips.redeem_tips). Every
# redemption before this was booked on its declaration's gaming date, which the rows take. The
# table is append-only: its triggers are lifted for the one UPDATE that fills the new column, and
# installed again after the column is made NOT NULL (which rebuilds the table on SQLite). A field
# added later is not in the old rows' audit events and is not checked for them (core.audit_rows).


def declarations_gaming_date(apps, schema_editor):
    redemption = apps.get_model("cage", "TipRedemption")._meta.db_table
    declaration = apps.get_model("cage", "TipDeclaration")._meta.db_table
    vendor = schema_editor.connection.vendor
    for sql in drop_trigger_sql(vendor, redemption):
        schema_editor.execute(sql)
    schema_editor.execute(
        f"UPDATE {redemption} SET gaming_date = (SELECT d.gaming_date FROM {declaration} d "  # noqa: S608 - names from code
        f"WHERE d.id = {redemption}.declaration_id) WHERE gaming_date IS NULL"
    )
    for sql in trigger_sql(vendor, redemption):
        schema_editor.execute(sql)


class Migration(migrations.Migration):

    dependencies = [
        ("cage", "0006_deposit_of_a_day_of_the_books"),
    ]

    operations = [
        KeepAppendOnly("tipredemption"),
        migrations.AddField(
            model_name="tipredemption",
            name="gaming_date",
            field=models.DateField(null=True),
        ),
        migrations.RunPython(declarations_gaming_date, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tipredemption",
            name="gaming_date",
            field=models.DateField(),
        ),
        KeepAppendOnly("tipredemption"),
    ]
