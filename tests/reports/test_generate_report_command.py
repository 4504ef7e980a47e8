"""`manage.py generate_report`: any kind from the command line, requested and audited in a
person's name like the browser's request, written as PDF, CSV or XLSX; clear errors otherwise."""

import csv
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook

from cardroom.models import Role
from core.models import AuditEvent
from reports.management.commands.generate_report import Command
from reports.models import ReportFile, ReportRun
from tests.factories import TableFactory
from tests.reports.test_reports import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(site):
    return [TableFactory(site=site, number=1, min_wager_cents=200, max_wager_cents=2500),
            TableFactory(site=site, number=2, min_wager_cents=500, max_wager_cents=2000)]  # fmt: skip


@pytest.fixture
def auditor(cast):
    return cast[Role.AUDITOR].user


def generate(*args, **options):
    out = io.StringIO()
    call_command("generate_report", *args, stdout=out, **options)
    return out.getvalue()


def test_the_house_rules_as_a_pdf_are_requested_and_audited_in_the_auditors_name(site, tables, auditor, tmp_path):
    output = tmp_path / "rules.pdf"
    said = generate("house_rules", site=site.pk, user=auditor.username, date="2026-11-20", file_format="pdf",
                    output=str(output))  # fmt: skip
    text = pdf_text(output.read_bytes())
    assert "Minimum wager $2.00; maximum wager $25.00" in text and "as of 2026-11-20" in text
    run = ReportRun.objects.get()
    assert (run.requested_by, run.status, str(run.end)) == (auditor, "done", "2026-11-20")
    assert bytes(ReportFile.objects.get(run=run).pdf) == output.read_bytes()
    event = AuditEvent.objects.get(action="report.requested")
    assert event.actor_id == auditor.pk and event.object_id == str(run.pk)
    assert str(output) in said and "House and player rules" in said


def test_the_house_rules_as_csv_and_xlsx_carry_typed_money(site, tables, auditor, tmp_path):
    generate("house_rules", site=site.pk, user=auditor.username, date="2026-11-20", file_format="csv",
             output=str(tmp_path / "rules.csv"))  # fmt: skip
    rows = list(csv.DictReader(io.StringIO((tmp_path / "rules.csv").read_text(encoding="utf-8"))))
    assert [(r["Table"], Decimal(r["Min wager"]), Decimal(r["Max wager"])) for r in rows] == [
        ("1", Decimal("2.00"), Decimal("25.00")), ("2", Decimal("5.00"), Decimal("20.00"))]  # fmt: skip
    generate("house_rules", site=site.pk, user=auditor.username, date="2026-11-20", file_format="xlsx",
             output=str(tmp_path / "rules.xlsx"))  # fmt: skip
    sheet = load_workbook(tmp_path / "rules.xlsx").active
    assert sheet.freeze_panes == "A2" and sheet["A1"].font.bold
    assert sheet["B2"].value == 2 and sheet["B2"].number_format == '"$"#,##0.00' and sheet["A2"].value == 1


def test_a_quarterly_summary_is_generated_at_once_not_left_to_a_worker(site, auditor, tmp_path):
    generate("quarterly", site=site.pk, user=auditor.username, quarter="2026Q3", file_format="xlsx",
             output=str(tmp_path / "q.xlsx"))  # fmt: skip
    assert ReportRun.objects.get().status == "done"
    sheet = load_workbook(tmp_path / "q.xlsx").active
    header = [c.value for c in sheet[1]]
    tax = next(row for row in sheet.iter_rows(min_row=2) if row[0].value == "tax")
    assert tax[header.index("Tax")].number_format == '"$"#,##0.00' and tax[header.index("Label")].value == "2026Q3"


@pytest.mark.parametrize("args,options,message", [
    (["nonsense"], {"quarter": "2026Q3"}, "House control: unknown report kind 'nonsense'; one of: "),
    (["quarterly"], {"site": 999_999, "quarter": "2026Q3"}, "--site: House control: no site with id 999999."),
    (["quarterly"], {}, "--quarter: House control: this report covers a quarter"),
    (["quarterly"], {"quarter": "2026-Q3"}, "--quarter: House control: write quarter as YYYYQn"),
    (["daily"], {"date": "2026-13-01"}, "--date: House control: date names no day of the calendar (2026-13-01 is not a date)."),
    (["daily"], {"date": "13/01/2026"}, "--date: House control: write date as YYYY-MM-DD (got '13/01/2026')"),
    (["daily"], {"start": "2026-11-20", "end": "2026-11-01"}, "--end: House control: end (2026-11-01) is before start"),
    (["daily"], {"start": "2026-11-20"}, "--end: House control: give start and end"),
    (["daily"], {"quarter": "2026Q3", "date": "2026-07-01"}, "House control: give either --quarter or a date"),
    (["daily"], {"date": "2026-07-01", "user": None}, "--user: House control: give the username"),
    (["daily"], {"date": "2026-07-01", "user": "nobody"}, "--user: House control: no active user 'nobody'."),
])  # fmt: skip
def test_bad_arguments_are_a_command_error_naming_the_option(site, auditor, tmp_path, args, options, message):
    options = {"site": site.pk, "user": auditor.username, "file_format": "csv", "output": str(tmp_path / "x")} | options
    with pytest.raises(CommandError) as refused:
        generate(*args, **options)
    assert message in str(refused.value)
    assert not ReportRun.objects.exists() and not (tmp_path / "x").exists()


def test_a_person_who_may_not_request_reports_is_refused_naming_the_rule(site, cast, tmp_path):
    dealer = cast[Role.DEALER].user
    with pytest.raises(CommandError, match="--user: House control"):
        generate("daily", site=site.pk, user=dealer.username, date="2026-07-01", output=str(tmp_path / "x"))
    assert not ReportRun.objects.exists()


@pytest.mark.unshared  # run_from_argv closes the connection
def test_an_error_exits_nonzero_from_the_command_line(site, auditor, tmp_path, capsys):
    argv = ["manage.py", "generate_report", "nonsense", "--site", str(site.pk), "--user", auditor.username,
            "--quarter", "2026Q3", "--format", "csv", "--output", str(tmp_path / "x")]  # fmt: skip
    with pytest.raises(SystemExit) as exited:
        Command().run_from_argv(argv)
    assert exited.value.code == 1 and "House control: unknown report kind 'nonsense'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        Command().run_from_argv([*argv[:-4], "--format", "docx", "--output", str(tmp_path / "x")])
    assert exited.value.code == 2  # argparse: invalid choice


def test_an_unwritable_output_is_a_command_error(site, tables, auditor, tmp_path):
    with pytest.raises(CommandError, match="--output: cannot write"):
        generate("house_rules", site=site.pk, user=auditor.username, date="2026-11-20",
                 output=str(tmp_path / "missing" / "rules.pdf"))  # fmt: skip
