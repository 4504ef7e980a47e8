"""A slip's site is its gaming day's site, guarded in the database: the figures and the
compliance scan reach a site's slips through its gaming days (house control: the services
always take the day from the table's site; chapter 99-01.3-08 says nothing of tables of rows).
Slips are append-only (no UPDATE), so the guard checks each INSERT. On SQLite a migration that
rebuilds `accounting_slip` must create the trigger again, as it must the append-only ones."""

from django.db import migrations

MESSAGE = "a slip's site must be its gaming day's site"

POSTGRESQL = f"""
CREATE FUNCTION slip_site_is_gaming_days() RETURNS trigger AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM accounting_gamingday WHERE id = NEW.gaming_day_id AND site_id = NEW.site_id) THEN
        RAISE EXCEPTION '{MESSAGE.replace("'", "''")}' USING ERRCODE = '23514';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER slip_site_is_gaming_days BEFORE INSERT ON accounting_slip
    FOR EACH ROW EXECUTE FUNCTION slip_site_is_gaming_days();
"""

SQLITE = f"""
CREATE TRIGGER slip_site_is_gaming_days BEFORE INSERT ON accounting_slip
WHEN NOT EXISTS (SELECT 1 FROM accounting_gamingday WHERE id = NEW.gaming_day_id AND site_id = NEW.site_id)
BEGIN SELECT RAISE(ABORT, '{MESSAGE.replace("'", "''")}'); END;
"""


def forwards(apps, schema_editor):
    schema_editor.execute(POSTGRESQL if schema_editor.connection.vendor == "postgresql" else SQLITE)


def backwards(apps, schema_editor):
    schema_editor.execute("DROP TRIGGER IF EXISTS slip_site_is_gaming_days ON accounting_slip"
                          if schema_editor.connection.vendor == "postgresql"
                          else "DROP TRIGGER IF EXISTS slip_site_is_gaming_days")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS slip_site_is_gaming_days()")


class Migration(migrations.Migration):
    dependencies = [("floor", "0007_slip_step_voids")]

    operations = [migrations.RunPython(forwards, backwards)]
