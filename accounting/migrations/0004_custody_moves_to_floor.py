# Written by hand (issue 19).
"""The custody models leave accounting's state; their tables stay (they are `floor`'s now,
floor 0001, under the same names). Runs after every foreign key to them has been pointed
at `floor` (cage 0002). Nothing happens in the database."""

from django.db import migrations

CUSTODY_MODELS = [  # children before parents
    'TableInventoryLine',
    'TableInventory',
    'SlipStep',
    'SlipLine',
    'Slip',
    'SlipBook',
    'GamingDayClose',
    'DealerShift',
    'GamingDay',
]


class Migration(migrations.Migration):

    dependencies = [
        ('accounting', '0003_quarter_filing'),
        ('floor', '0001_initial'),
        ('cage', '0002_gaming_day_is_the_floors'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name=name) for name in CUSTODY_MODELS],
            database_operations=[],
        ),
    ]
