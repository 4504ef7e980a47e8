"""No N+1 anywhere (issue 18): every page and list endpoint, found from the URL conf and the
API router (benchmarks/pages.py, the walker `manage.py bench_pages` prints), answers the gaming
manager in exactly as many queries at four times the rows as at the demo's last night, and as
with four times the boxes counted in the count under way (more nights add sessions, never boxes
to one session)."""

import re

import pytest

from benchmarks import pages
from counts.models import CountAgreement, CountSession, CountSignature
from counts.queries import session_drops

pytestmark = pytest.mark.django_db


def test_no_page_or_list_endpoint_runs_more_queries_for_more_rows():
    comparisons = pages.walk()
    table = "\n".join(pages.report(comparisons))
    by_route = {c.path.split("?")[0]: c for c in comparisons}

    # The walk reaches the pages and lists from the URL conf, and detail pages from their links.
    assert len(comparisons) >= 80, table
    for must in (
        "/",
        "/cage/",
        "/api/v1/count-sessions/",
        "/api/v1/surveillance/review-tasks/",
        "/api/v1/fill-slips/",
        "/surveillance/programs/",
        "/setup/tables/",
    ):
        assert must in by_route, must
    for prefix in ("/counts/sessions/", "/surveillance/programs/", "/floor/slips/", "/setup/employees/"):
        assert any(p.startswith(prefix) and p != prefix for p in by_route), prefix
    assert all(c.small.status == 200 and c.large.status == 200 for c in comparisons), table
    assert all(c.small.queries > 0 and c.large.queries > 0 for c in comparisons), table  # each reads its session

    # The data grew: the day-by-day lists hold about four times the rows.
    grown = [c.path for c in comparisons if c.small.rows and c.large.rows >= 3 * c.small.rows]
    assert {"/api/v1/count-sessions/", "/api/v1/gaming-days/", "/api/v1/cage/bank-counts/"} <= set(grown), table
    assert len(grown) >= 6, table
    reviews = by_route["/api/v1/surveillance/review-entries/"]
    assert reviews.large.rows > reviews.small.rows, table  # week two's reviews, on the program page too

    # ...and no page or list asked the database one more question for them.
    grew = [c.path for c in comparisons if c.large.queries != c.small.queries]
    assert grew == [], table
    lines = table.splitlines()
    assert "worst query growth: 1.00" in lines

    # The count under way is the count session walked (its page and its sheet), and its boxes grew:
    # one counted and the next awaiting at the two sizes, four times as many counted at the third.
    (session_page,) = [p for p in by_route if re.fullmatch(r"/counts/sessions/\d+/", p)]
    session = CountSession.objects.get(pk=session_page.split("/")[3])
    assert session.gaming_date == pages.under_way_night(session.site)
    assert f"{session_page}sheet.pdf" in by_route
    assert not CountSignature.objects.filter(session=session).exists()
    counted = pages.UNDER_WAY_BOXES * pages.GROWTH
    assert CountAgreement.objects.filter(session=session).count() == counted
    assert len(session_drops(session)) >= 2 * (pages.UNDER_WAY_BOXES + 1)  # its page's boxes, twice as many or more
    # ...and no page or list asked the database one more question for them.
    assert all(c.boxes.status == c.large.status for c in comparisons), table
    assert [c.path for c in comparisons if c.boxes.queries != c.large.queries] == [], table
    boxed = f"worst query growth for {pages.GROWTH} times the boxes of a count session: 1.00 "
    assert any(line.startswith(boxed) for line in lines), table
    # Time growth is printed beside it, ending with the ratio to the floor (the small size).
    assert lines[-2].startswith("time growth: all addresses together ")
    assert lines[-1].startswith("ratio to floor: ") and "(target 1.5)" in lines[-1]
