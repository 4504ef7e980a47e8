"""Fixtures the core tests share."""

import pytest

from tests.pack_setup import record_controls, record_licence


@pytest.fixture
def pack_site(site, manager):
    """`site` made a site of a pack (its code), with what its tables follow recorded first."""

    def as_pack(code):
        site.jurisdiction = code
        site.save()
        if code == "WA-HB":
            record_controls(manager, site)  # WSGC rules: the internal controls come first
        if code == "NY":
            record_licence(manager, site, tie_option=1)  # 9 NYCRR 4620.5(h)
        return site

    return as_pack
