"""Queries built from a list of ids, a chunk at a time (issue 18: no query carries an
unbounded id list).

SQLite refuses a statement with more than 32,766 host parameters ("too many SQL variables")
and PostgreSQL more than 65,535, so a list that grows with the data (the rows of one
`bulk_create`) is sent in chunks of `settings.ID_CHUNK` (5,000: well under either database's
limit, with room for the query's other parameters): one query per chunk, the same rows as one
query with the whole list. A list that can be a subquery should be one instead (a join). A
setting, read at each call, so that a test proves the chunking with a few thousand rows under a
lowered limit (tests/core/test_id_lists.py) rather than with a hundred thousand under the real one."""

from collections.abc import Iterable, Iterator

from django.conf import settings


def id_chunk() -> int:
    return settings.ID_CHUNK


def chunks(values: Iterable, size: int | None = None) -> Iterator[list]:
    """`values` in lists of at most `size` (settings.ID_CHUNK), in their order."""
    size = size or id_chunk()
    values = list(values)
    for start in range(0, len(values), size):
        yield values[start : start + size]


def rows_among(queryset, lookup: str, values: Iterable, size: int | None = None) -> Iterator:
    """The rows of `queryset` (models or `values_list` tuples) whose `lookup` is one of
    `values`, one query per chunk of `values`."""
    for chunk in chunks(values, size):
        yield from queryset.filter(**{f"{lookup}__in": chunk})
