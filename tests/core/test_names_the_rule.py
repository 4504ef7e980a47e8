"""core.forms.NamesTheRule: Django's stock refusals on a browser form name the field's label and
House control before Django's words; a message the form set itself stays as it is."""

import pytest
from django import forms
from django.core.exceptions import ValidationError

from cardroom.models import Table, refuse_weak_password
from core.forms import NamesTheRule
from core.rules import lower_first, stock_message_named


class Sample(NamesTheRule, forms.Form):
    kind = forms.ChoiceField(choices=[("fill", "Fill"), ("credit", "Credit")], label="Hold (%) kind")
    number = forms.IntegerField(min_value=1, required=False)
    note = forms.CharField(max_length=3, required=False)
    own = forms.ChoiceField(choices=[("a", "A")], required=False, error_messages={"invalid_choice": "ND 1: own."})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["late"] = forms.IntegerField(required=False, label="Added late")  # as a chip grid adds its boxes


@pytest.mark.parametrize(
    "posted,field,said",
    [
        ({"kind": "Weekly"}, "kind",
         "House control: Hold (%) kind: select a valid choice; Weekly is not one of the available choices."),
        ({"kind": ""}, "kind", "House control: Hold (%) kind is required; the record is not kept without it."),
        ({"number": "2.5"}, "number", "House control: Number: enter a whole number."),
        ({"number": "0"}, "number", "House control: Ensure Number is greater than or equal to 1."),
        ({"note": "abcd"}, "note", "House control: Ensure Note has at most 3 characters (it has 4)."),
        ({"own": "b"}, "own", "ND 1: own."),
        ({"late": "x"}, "late", "House control: Added late: enter a whole number."),
    ],
)  # fmt: skip
def test_a_stock_refusal_names_the_label_and_house_control(posted, field, said):
    form = Sample({"kind": "fill", **posted})
    assert not form.is_valid()
    assert form.errors[field] == [said]


@pytest.mark.parametrize(
    ("sentence", "lowered"),
    [
        ("This password is too common.", "this password is too common."),
        ("Enter a whole number.", "enter a whole number."),
        ("ÉTAT", "éTAT"),  # the first letter only
        ("25 chips", "25 chips"),
        ("", ""),
    ],
)
def test_one_lowerer_puts_a_sentence_after_its_rule(sentence, lowered):
    assert lower_first(sentence) == lowered


def test_a_weak_password_and_a_stock_message_are_lowered_by_it_in_their_own_words():
    """A password's sentences each follow House control as sentences; a stock message's first
    sentence follows the field's name, the next joined with a semicolon (core.rules)."""
    with pytest.raises(ValidationError) as refused:
        refuse_weak_password("12345678", None)
    assert refused.value.message_dict["password"] == [
        "House control: this password is too common.",
        "House control: this password is entirely numeric.",
    ]
    said = stock_message_named("Number", "Enter a whole number. Try again.")
    assert said == "House control: Number: enter a whole number; try again."


def test_a_taken_table_number_follows_the_packs_citation_lowered(table):
    """The database's sentence for a second table of one number (cardroom.models.TABLE_NUMBER_TAKEN)
    after the rule the site's pack cites for table numbers."""
    twin = Table(site=table.site, number=table.number, min_wager_cents=100, max_wager_cents=2500)
    with pytest.raises(ValidationError) as refused:
        twin.validate_constraints()
    assert "ND 99-01.3-08-02(1): each table at a site must have its own number." in refused.value.messages
