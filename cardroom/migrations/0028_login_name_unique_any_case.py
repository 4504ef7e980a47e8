# Written by hand on 2026-12-05: Django's auth table is not the project's to declare constraints on,
# so its index is made in SQL (the same on SQLite and PostgreSQL).

from django.db import migrations

# The index's name, as core.database_refusals knows it (LOGIN_NAME_ANY_CASE): a migration imports
# no app code, so it is written here again.
INDEX = "auth_user_username_any_case"


def refuse_logins_differing_only_in_case(apps, schema_editor):
    """The index cannot be made while two logins differ only in case ("JDoe" and "jdoe"): say
    which, so that one is renamed (the Django admin) and the migration run again."""
    User = apps.get_model("auth", "User")
    by_lower: dict[str, list[str]] = {}
    for username in User.objects.order_by("pk").values_list("username", flat=True):
        by_lower.setdefault(username.lower(), []).append(username)
    clashes = [" and ".join(repr(n) for n in names) for names in by_lower.values() if len(names) > 1]
    if clashes:
        raise RuntimeError(
            "House control: a login name is unique whatever its case; rename one of "
            + "; one of ".join(clashes)
            + " before migrating."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("cardroom", "0027_site_name_unique_in_org_any_case"),
    ]

    operations = [
        migrations.RunPython(refuse_logins_differing_only_in_case, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (lower(username))",
            f"DROP INDEX {INDEX}",
        ),
    ]
