"""`core.forms.offer_only`: a select narrowed to the values allowed at the record's site, beside the
record's own recorded value, with the rule said under it (the table form's fixed and documented
values and its location, the drop box exchange on the boxes page and in the admin)."""

from django import forms

from core.forms import offer_only

CHOICES = [("gaming_day", "Once per gaming day"), ("dealer_shift", "At each dealer change"), ("weekly", "Weekly")]
RULE = "ND 99-01.3-08-04(8): no dealer has a hold here."


def offered(field) -> list[str]:
    return [value for value, _ in field.widget.choices]


def test_the_allowed_values_and_the_recorded_one_are_offered_and_no_other():
    field = forms.ChoiceField(choices=CHOICES)
    offer_only(field, ["gaming_day"], recorded="weekly", help_text=RULE)
    assert offered(field) == ["gaming_day", "weekly"]
    assert field.help_text == RULE


def test_a_new_record_is_offered_the_allowed_values_alone():
    field = forms.ChoiceField(choices=CHOICES, help_text="As it was.")
    offer_only(field, ["gaming_day"])
    assert offered(field) == ["gaming_day"]
    assert field.help_text == "As it was."  # no rule given: the field's own help stays


def test_a_value_not_offered_still_reaches_the_rule_that_refuses_it():
    field = forms.ChoiceField(choices=CHOICES)
    offer_only(field, ["gaming_day"])
    assert field.clean("dealer_shift") == "dealer_shift"  # the rule, not Django's stock words, refuses it


def test_a_yes_no_box_is_told_not_narrowed():
    field = forms.BooleanField(required=False)
    offer_only(field, [True], recorded=False, help_text=RULE)
    assert field.help_text == RULE and not hasattr(field.widget, "choices")
