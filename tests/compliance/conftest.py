import pytest

from compliance.thresholds import ThresholdBook, ensure_seeded


@pytest.fixture(autouse=True)
def _thresholds(request):
    """The seed thresholds; a transactional test's flush removes migration data."""
    if request.node.get_closest_marker("django_db") or {"db", "transactional_db"} & set(request.fixturenames):
        request.getfixturevalue("db" if not request.node.get_closest_marker("django_db") else "_django_db_helper")
        ensure_seeded()
        yield
        _every_alert_figure_has_a_label()
    else:
        yield


def _every_alert_figure_has_a_label():
    """The alerts any compliance test opened (through the providers, on that test's records)
    show every figure with a label: compliance.labels.FIGURES knows each key."""
    from compliance.labels import FIGURES
    from compliance.models import Alert

    missing = {
        (rule, key)
        for rule, figures in Alert.objects.values_list("rule", "figures")
        for key in figures
        if key not in FIGURES
    }
    assert not missing, f"figures without a label in compliance.labels.FIGURES: {sorted(missing)}"


@pytest.fixture
def book(db):
    from datetime import date

    ensure_seeded()
    return ThresholdBook(date(2026, 9, 30))
