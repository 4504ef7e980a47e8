"""A count and its noun as a sentence says it: "1 minute", "0 minutes", "2 days"."""


def plural(count: int, noun: str, nouns: str = "") -> str:
    """`count` and `noun`, the noun singular for exactly one; `nouns` where the plural is not the
    noun and an s ("2 people")."""
    return f"{count} {noun_for(count, noun, nouns)}"


def noun_for(count: int, noun: str, nouns: str = "") -> str:
    """The noun alone for `count` things, as before a list of them: "table 3", "tables 1, 4"."""
    return noun if count == 1 else nouns or noun + "s"


def one_of(words: list[str]) -> str:
    """Words as a sentence offers a choice of them: "A", "A or B", "A, B or C"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
