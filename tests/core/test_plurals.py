"""core.plurals: a count and its noun, singular for exactly one."""

import pytest

from core.plurals import plural


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
