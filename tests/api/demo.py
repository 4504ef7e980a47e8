"""A few weeks of the demo, built by the demo's own builders: every kind of record the API
serves, at a size that loads in seconds (the full demo, two quarters, takes about 40 s)."""

from django.utils import timezone

from cardroom.demo import load_demo

DEMO_WEEKS = 2


def load_short_demo(weeks: int = DEMO_WEEKS) -> dict:
    """The demo's master data and its last `weeks` of activity (run again with more weeks to
    add the earlier ones: every builder is idempotent)."""
    from cage.demo import extend_demo as cage
    from counts.demo import extend_demo as counts
    from floor.demo import build_demo_custody, demo_days, people_at
    from surveillance.demo import extend_demo as surveillance
    from tournaments.demo import extend_demo as tournaments

    demo = load_demo()
    today = timezone.localdate()
    for key, site in demo["sites"].items():
        days = [d for d in demo_days(key, site, today) if (today - d).days <= 7 * weeks]
        build_demo_custody(site, days=days, people=people_at(site))
    # as load_demo: the site's surveillance before the rest, the tournament before the bank count
    for extend in (surveillance, counts, tournaments, cage):
        extend(demo)
    return demo
