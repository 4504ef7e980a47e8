"""Steps the count's services share: the shape of the figures (bills and coins by
denomination, forms found). The acting employee, the time of an act and the refusal of a day
whose books are closed are the platform's (core.acts)."""

from datetime import datetime

from django.utils import timezone

Figures = dict[tuple[int, str], int]  # (denomination_cents, "bill"|"coin") -> quantity > 0


Forms = set[tuple[str, int]]  # ("fill"|"credit", slip number)


def at_or_now(at: datetime | None) -> datetime:
    return at or timezone.now()
