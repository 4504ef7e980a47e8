import django.db.models.deletion
from django.db import migrations, models

import core.appendonly

# A recorded bank deposit is corrected by a new row pointing back at it (the deposit stays as
# recorded); the correction is append-only, guarded by the database's triggers as the deposit is.


class Migration(migrations.Migration):
    dependencies = [
        ("cage", "0007_tipredemption_gaming_date"),
        ("cardroom", "0031_relation_not_self_cites_house_control"),
    ]

    operations = [
        migrations.CreateModel(
            name="DepositCorrection",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("amount_cents", models.PositiveBigIntegerField()),
                ("deposited_on", models.DateField()),
                ("reference", models.CharField(blank=True, max_length=80)),
                ("reason", models.TextField(max_length=2000)),
                ("recorded_at", models.DateTimeField()),
                ("initials", models.CharField(max_length=4)),
                (
                    "deposit",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="corrections", to="cage.bankdeposit"
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT, related_name="+", to="cardroom.employee"
                    ),
                ),
            ],
            options={
                "ordering": ["deposit_id", "recorded_at", "id"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("reason", ""), _negated=True),
                        name="cage_deposit_correction_has_reason",
                        violation_error_message="A correction states its reason.",
                    )
                ],
            },
        ),
        core.appendonly.AppendOnly("depositcorrection"),
    ]
