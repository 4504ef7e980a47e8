"""Found walking the demo: the drop-box removal form asked "Key to the second lock held by" at a site
whose every box has one lock. The key to a second lock is asked only where a box offered has two
(ND 99-01.3-08-14(3), `counts.rules.KEYS`), naming those boxes; the one-box form and the form
removing all of a day's boxes alike."""

from counts import services
from tests.factories import TableFactory


def test_the_removal_forms_ask_no_second_key_where_every_box_has_one_lock(client, shift_manager, boxes):
    client.force_login(shift_manager.user)
    for path, name in (("/counts/boxes/", "removal_form"), ("/counts/boxes/remove-all/", "form")):
        answer = client.get(path)
        assert "second_key_holder" not in answer.context[name].fields, path
        assert "Key to the second lock" not in answer.content.decode(), path


def test_a_two_lock_box_is_named_where_the_second_key_is_asked(client, manager, shift_manager, site, boxes):
    two = services.register_drop_box(acting_user=manager.user, table=TableFactory(site=site, number=3), locks=2)
    client.force_login(shift_manager.user)
    answer = client.get("/counts/boxes/")
    field = answer.context["removal_form"].fields["second_key_holder"]
    assert field.help_text == (
        f"ND 99-01.3-08-14(3): for a box with two locks ({two}), the other count team member; "
        "a box with one lock has no second key."
    )
    assert "Key to the second lock held by" in answer.content.decode()
