# The unique slip number's message names no jurisdiction (the services cite the site's rule); no change to the database.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('cardroom', '0013_drop_indexes_a_composite_index_leads_with'),
        ('floor', '0009_drop_indexes_a_composite_index_leads_with'),
    ]

    operations = [
        migrations.AlterConstraint(
            model_name='slip',
            name='slip_number_unique_per_site_series',
            constraint=models.UniqueConstraint(fields=('site', 'kind', 'number'), name='slip_number_unique_per_site_series', violation_error_message='This slip number is already used at the site; numbers are never reused.'),
        ),
    ]
