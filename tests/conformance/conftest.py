"""The walks are as each kind of user a pack's site has: where the player deals and banks (WA-BJ,
WAC 230-40-125(2): `floor.rules.PLAYER_DEALER`) the house seats no dealer, so no walk is made as
one there. The combination is taken out when the tests are collected (pytest's "deselected"), not
walked and skipped: it is not a test that could pass or fail."""

from floor.rules import PLAYER_DEALER

WALKS_AS_A_USER = "test_every_page_and_api_address_at_a_site_speaks_only_its_packs_law"


def walked_as(code: str, kind: str) -> bool:
    return kind != "dealer" or not PLAYER_DEALER.applies(code)


def pytest_collection_modifyitems(config, items):
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        walk = getattr(item, "originalname", None) == WALKS_AS_A_USER
        (kept if not walk or walked_as(params["built"], params["kind"]) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
