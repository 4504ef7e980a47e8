"""The records a table follows, made first in tests. Washington house-banked internal controls: the WSGC rules
require the options a table uses documented in the internal controls in effect, so the controls
come first (approvals.checks). Recorded through the service, as a gaming manager would."""

from datetime import timedelta

from approvals import services
from approvals.queries import site_today

# Every value each documented option takes (a test that is not about the controls).
EVERY_OPTION = dict(
    dealer_hits_soft_17=[False, True],
    split_pairs=["any_pair", "identical", "aces_eights", "none"],
    double_on=["any_two", "ten_eleven", "nine_to_eleven", "none"],
    insurance_allowed=[False, True],
    surrender=["none", "late"],
    blackjack_payout=["3:2", "6:5", "2:1", "1:1"],
    payout_rounding=["", "down", "up"],
    resplit_allowed=[False, True],
    split_aces_one_card=[False, True],
    double_after_split=[False, True],
    double_down=["equal", "up_to", "total"],
    even_money_offered=[False, True],
)


# How the card room addresses irregularities (the WSGC rules' "Irregularities").
IRREGULARITIES = "A misdeal voids the round and every wager is returned; an exposed card in the shoe is burned."


def record_controls(manager, site, **options):
    """A version of the site's house-blackjack internal controls in effect since 30 days ago."""
    today = site_today(site)
    return services.record_internal_controls(
        acting_user=manager.user,
        site=site,
        effective_on=today - timedelta(days=30),
        approved_on=today - timedelta(days=40),
        approved_by="B. Lane, WSGC",
        **{"irregularities": IRREGULARITIES, **EVERY_OPTION, **options},
    )


def record_licence(manager, site, tie_option=1):
    """The organization's licence, in force since 2024, reflecting `tie_option` (9 NYCRR 4620.5(h):
    every New York table follows it)."""
    from datetime import date

    return services.record_licence(
        acting_user=manager.user,
        organization=site.organization,
        licence_number="NY-GC-1",
        tie_option=tie_option,
        effective_on=date(2024, 1, 1),
    )
