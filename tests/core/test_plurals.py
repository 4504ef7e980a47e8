"""core.plurals: a count and its noun, singular for exactly one."""

import pytest

from core.plurals import noun_for, plural


@pytest.mark.parametrize(
    "count, noun, nouns, said",
    [
        (1, "minute", "", "1 minute"),
        (0, "minute", "", "0 minutes"),
        (240, "minute", "", "240 minutes"),
        (2, "person", "people", "2 people"),
        (1, "person", "people", "1 person"),
    ],
)
def test_a_count_says_its_noun_in_the_singular_only_for_one(count, noun, nouns, said):
    assert plural(count, noun, nouns) == said


@pytest.mark.parametrize("count, said", [(1, "table"), (2, "tables"), (0, "tables")])
def test_a_noun_before_a_list_is_singular_only_for_one(count, said):
    assert noun_for(count, "table") == said
