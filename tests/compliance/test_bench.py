from io import StringIO

from django.core.management import call_command

from compliance.models import Alert


def test_bench_compliance_scans_with_a_query_count_independent_of_the_sites(db):
    out = StringIO()
    call_command("bench_compliance", "--sites", "4", "--quarters", "2", stdout=out)
    text = out.getvalue()
    assert "constant with the number of sites" in text
    assert "Scratch data rolled back." in text
    assert not Alert.objects.exists()
