"""The floor's fixtures (an open gaming day, a table opened with a tray) for the API's tests."""

from tests.floor.conftest import gaming_day, open_table, shift_manager  # noqa: F401
