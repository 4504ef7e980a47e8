"""Surveillance's state refusals (the order of a change's samples and their evaluation, an outage's
moments, an outage repaired twice, an operational date of a site needing no system) name the field
and the rule of the site's pack: North Dakota's 08-04 where its text states the rule, "House
control" where no text does and at every Washington or New York site (their texts state no video
surveillance), never another pack's words. Driven through the services, a matrix over the refusals
and the packs."""

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError

from surveillance import services
from surveillance.services.outages import report_outage
from tests.conformance.words import refused_in_its_packs_words

from .conftest import local
from .test_packs import as_pack

PACKS = ["ND", "WA-HB", "WA-BJ", "NY"]
CHANGED = date(2026, 3, 5)
# ND 08-04(11): a sample "within fourteen days" of a change; "If the quality of the sample recording is
# not satisfactory, an organization and vendor shall resolve the deficiency and resubmit a sample".
SAMPLE = "ND 99-01.3-08-04(11)"
# ND 08-04(7): repair "within forty-eight hours of activity on the table or four calendar days".
OUTAGE = "ND 99-01.3-08-04(7)"
# ND 08-04's opening paragraph: the activity that requires a system operational within forty-five days.
SYSTEM = "ND 99-01.3-08-04"
HOUSE = "House control"


def _change(f):
    camera = services.install_equipment(
        acting_user=f["manager"].user, site=f["site"], table=f["table"], kind="camera", make_model="Axis",
        installed_on=CHANGED,
    )  # fmt: skip
    return camera.changes.get()


def _submit(f, change, on=CHANGED):
    return services.submit_sample(acting_user=f["manager"].user, change=change, submitted_on=on)


def _evaluate(f, submission, outcome="resubmit", on=CHANGED):
    return services.record_sample_evaluation(
        acting_user=f["manager"].user, submission=submission, evaluated_on=on, outcome=outcome
    )


def _sample_before_its_change(f):
    _submit(f, _change(f), on=CHANGED - timedelta(days=1))


def _sample_while_the_last_awaits_evaluation(f):
    change = _change(f)
    _submit(f, change)
    _submit(f, change)


def _sample_after_approval(f):
    change = _change(f)
    _evaluate(f, _submit(f, change), outcome="approved")
    _submit(f, change)


def _evaluation_before_the_sample(f):
    _evaluate(f, _submit(f, _change(f), on=CHANGED + timedelta(days=2)), on=CHANGED + timedelta(days=1))


def _sample_evaluated_twice(f):
    submission = _submit(f, _change(f))
    _evaluate(f, submission)
    _evaluate(f, submission)


def _outage(f, began_at):
    return report_outage(
        acting_user=f["shift"].user, table=f["table"], kind="camera", began_at=began_at, description="Camera dark"
    )


def _outage_without_its_start(f):
    _outage(f, None)


def _repair_without_its_moment(f):
    services.record_outage_repair(
        acting_user=f["shift"].user, outage=_outage(f, local(2026, 3, 5, 20)), repaired_at=None, description="Fixed"
    )


def _outage_repaired_twice(f):
    outage = _outage(f, local(2026, 3, 5, 20))
    for hour in (21, 22):
        services.record_outage_repair(
            acting_user=f["shift"].user, outage=outage, repaired_at=local(2026, 3, 5, hour), description="Fixed"
        )


def _operational_date_without_a_system(f):
    services.set_surveillance_status(f["manager"].user, f["site"], False, CHANGED, CHANGED, "no system needed")


REFUSALS = [
    # (name, the act, the field, the citation at an ND site; House control at every other pack's)
    ("a sample sent before its change", _sample_before_its_change, "submitted_on", SAMPLE),
    ("a sample while the last awaits evaluation", _sample_while_the_last_awaits_evaluation, "change", SAMPLE),
    ("a sample after the change's is approved", _sample_after_approval, "change", SAMPLE),
    ("an evaluation before its sample", _evaluation_before_the_sample, "evaluated_on", SAMPLE),
    ("a sample evaluated twice", _sample_evaluated_twice, "submission", SAMPLE),
    ("an outage without its start", _outage_without_its_start, "began_at", OUTAGE),
    ("a repair without its moment", _repair_without_its_moment, "repaired_at", OUTAGE),
    ("an outage repaired twice", _outage_repaired_twice, "outage", HOUSE),
    ("an operational date without a system", _operational_date_without_a_system, "operational_on", SYSTEM),
]


@pytest.mark.parametrize("code", PACKS)
@pytest.mark.parametrize(("name", "act", "field", "nd"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_each_state_refusal_names_its_field_and_the_rule_of_the_sites_pack(
    site, manager, shift_manager, code, name, act, field, nd
):
    world = {"site": site, "table": as_pack(site, code), "manager": manager, "shift": shift_manager}
    with pytest.raises(ValidationError) as refused:
        act(world)
    refused_in_its_packs_words(refused.value.message_dict, field, nd if code == "ND" else HOUSE, code)
