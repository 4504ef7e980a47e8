"""Fixtures of the organization's side of state filing: the quarter played and its table
(tests/accounting/test_quarter_filing.py) and the registry reachable in this process."""

from tests.accounting.test_quarter_filing import _after_the_quarter, quarter_played, table  # noqa: F401

from .registry_in_process import in_process_registry, licensee, linked  # noqa: F401
