"""A slip's site and table, and a slip line's slip, lose the index of their own foreign key: a
composite index leads with each (the slip's (site, prepared_at), (site, kind, number) and (site,
kind, id), its (table, prepared_at), the line's unique (slip, denomination)), and every slip
wrote all of them (bench_slips, issue 37). The index is dropped by its name, not by
Django's AlterField, which on SQLite rebuilds the table and would drop its append-only
and gaming-day triggers with it."""

from django.db import migrations, models
from django.db.models.deletion import PROTECT

# The foreign keys' own indexes, as Django named them (the same on SQLite and PostgreSQL).
DROPPED = [
    ("accounting_slip_site_id_a20358c5", "accounting_slip", "site_id"),
    ("accounting_slip_table_id_027d6552", "accounting_slip", "table_id"),
    ("accounting_slipline_slip_id_3d47e5ee", "accounting_slipline", "slip_id"),
]


def drop(apps, schema_editor):
    for name, _table, _column in DROPPED:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


def create(apps, schema_editor):
    for name, table, column in DROPPED:
        schema_editor.execute(f"CREATE INDEX {name} ON {table} ({column})")


class Migration(migrations.Migration):
    dependencies = [
        ("floor", "0013_slip_step_times"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(drop, create)],
            state_operations=[
                migrations.AlterField(
                    model_name="slip",
                    name="site",
                    field=models.ForeignKey(
                        db_index=False, on_delete=PROTECT, related_name="slips", to="cardroom.site"
                    ),
                ),
                migrations.AlterField(
                    model_name="slip",
                    name="table",
                    field=models.ForeignKey(
                        db_index=False, on_delete=PROTECT, related_name="slips", to="cardroom.table"
                    ),
                ),
                migrations.AlterField(
                    model_name="slipline",
                    name="slip",
                    field=models.ForeignKey(db_index=False, on_delete=PROTECT, related_name="lines", to="floor.slip"),
                ),
            ],
        ),
    ]
