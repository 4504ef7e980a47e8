"""One module per report; importing this package registers them all."""

from . import alerts, house_rules  # noqa: F401
