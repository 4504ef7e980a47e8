import pytest

from compliance.thresholds import ThresholdBook, ensure_seeded


@pytest.fixture(autouse=True)
def _thresholds(request):
    """The seed thresholds; a transactional test's flush removes migration data."""
    if request.node.get_closest_marker("django_db") or {"db", "transactional_db"} & set(request.fixturenames):
        request.getfixturevalue("db" if not request.node.get_closest_marker("django_db") else "_django_db_helper")
        ensure_seeded()


@pytest.fixture
def book(db):
    from datetime import date

    ensure_seeded()
    return ThresholdBook(date(2026, 9, 30))
