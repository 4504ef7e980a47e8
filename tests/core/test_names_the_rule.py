"""core.forms.NamesTheRule: Django's stock refusals on a browser form name the field's label and
House control before Django's words; a message the form set itself stays as it is."""

import pytest
from django import forms

from core.forms import NamesTheRule


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
