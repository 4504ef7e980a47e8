"""Every append-only model has its refusing triggers in the database, on both vendors."""

import pytest
from django.apps import apps
from django.db import connection

from core.appendonly import AppendOnlyModel, installed_trigger_names


def append_only_models():
    return [m for m in apps.get_models() if issubclass(m, AppendOnlyModel)]


def test_the_audit_log_is_among_the_append_only_models():
    assert "core.auditevent" in {m._meta.label_lower for m in append_only_models()}


@pytest.mark.django_db
@pytest.mark.parametrize("model", append_only_models(), ids=lambda m: m._meta.label_lower)
def test_every_append_only_model_has_its_triggers(model):
    names = installed_trigger_names(connection, model._meta.db_table)
    table = model._meta.db_table
    expected = (
        {f"{table}_append_only", f"{table}_append_only_truncate"}
        if connection.vendor == "postgresql"
        else {f"{table}_no_update", f"{table}_no_delete"}
    )
    assert expected <= names


def covered_models():
    from core.audit_rows import covered_models as models

    return models()


def test_every_append_only_model_but_the_audit_log_is_covered_by_row_events():
    tables = {m._meta.db_table for m in covered_models()}
    # The registry's rows belong to no organization of the deployment: its own chain of
    # receipts covers the filings (registry.services.verify_filings).
    own_chains = {
        "cardroom_auditevent",
        "cardroom_auditcheckpoint",
        "registry_receivedfiling",
        "registry_receivedanchor",
        "registry_receiveddocument",
        "registry_receivedalert",
        "registry_receiveddealerhold",
    }
    assert tables == {m._meta.db_table for m in append_only_models()} - own_chains
    assert {"accounting_slip", "accounting_slipline", "accounting_slipstep", "reports_reportfile"} <= tables


@pytest.mark.parametrize("model", covered_models(), ids=lambda m: m._meta.db_table)
def test_every_covered_model_has_a_path_to_its_organization(model):
    from core.audit_rows import model_organization_path

    path = model_organization_path(model)
    target = model
    for name in path.split("__")[:-1]:
        target = target._meta.get_field(name).related_model
    assert target._meta.get_field(path.split("__")[-1]).related_model._meta.label_lower == "cardroom.organization"
