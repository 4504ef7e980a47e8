"""The day sheet as CSV from the browser: the template, a filled file applied like the API's
sheet, and every error shown at its row with nothing changed."""

import csv
import html
import io
from datetime import date, timedelta

from django.test import Client

from accounting import day_sheet_csv, summaries
from cardroom.models import ChipDenomination
from floor.calculations import site_today
from floor.models import GamingDay
from tests.accounting import test_day_sheets as api_tests
from tests.accounting.test_day_sheets import (
    BOX_1,
    BOX_2,
    CHANGE,
    CLOSER_1,
    CLOSER_2,
    CREDIT,
    FILL,
    TRAY,
    full_sheet,
    row_counts,
)

day, world = api_tests.day, api_tests.world  # the same fixtures

PAGE = "/accounting/day-sheets/"


def chips_cell(lines, key="denomination") -> str:
    return " ".join(f"{line[key] / 100:g}x{line['quantity']}" for line in lines)


def full_csv(day, people) -> str:
    """The day of test_day_sheets.full_sheet, as the CSV a clerk would fill."""
    i = {key: person.initials for key, person in people.items()}
    rows = [
        ["section", "gaming_date", "table", "kind", "number", "dealer", "box", "at", "by", "chips", "currency"]
        + ["members", "verified_at", "verified_by", "received_at", "received_by", "escorted_by"]
        + ["storage_place", "key_holder"],
        ["# a comment row is skipped"],
        ["day", day.isoformat()],
        ["open", "", "", "", "", "", "", "17:55", i["sm"]],
        ["opener", "", "1", "", "", "", "", "18:00", i["sm"], chips_cell(TRAY)],
        ["opener", "", "2", "", "", "", "", "18:01", i["sm"], chips_cell(TRAY)],
        ["dealer_shift", "", "1", "", "", i["d1"], "", "18:05", i["sm"]],
        ["dealer_shift", "", "2", "", "", i["d2"], "", "18:05", i["sm"]],
        ["dealer_shift", "", "1", "", "", i["d3"], "", "22:00", i["sm"], chips_cell(CHANGE)],
        ["slip", "", "1", "fill", "1001", "", "", "20:00", i["ca"], chips_cell(FILL), "", ""]
        + ["20:01", i["pb"], "20:02", i["d1"]],
        ["slip", "", "2", "credit", "501", "", "", "23:00", i["pb"], chips_cell(CREDIT), "", ""]
        + ["23:01", i["sm"], "23:02", i["ca"]],
        [],
        ["closer", "", "1", "", "", "", "", "01:00", i["sm"], chips_cell(CLOSER_1)],
        ["closer", "", "2", "", "", "", "", "01:01", i["sm"], chips_cell(CLOSER_2)],
        *[
            ["drop", "", "", "", "", "", str(n), "01:10", i["sm"], "", "", "", "", "", "", ""]
            + [i["pb"], "office safe", i["c1"]]
            for n in (1, 2)
        ],
        ["close", "", "", "", "", "", "", "01:30", i["sm"]],
        ["count_open", "", "", "", "", "", "", "02:00", i["c1"], "", "", f"{i['c1']} {i['c2']}"],
        *[
            ["count", "", "", "", "", "", str(box), "02:10", i[who], "", chips_cell(cash, "denomination_cents")]
            for box, cash in ((1, BOX_1), (2, BOX_2))
            for who in ("c1", "c2")
        ],
        ["count_sign", "", "", "", "", "", "", "02:30", i["c1"]],
        ["count_sign", "", "", "", "", "", "", "02:31", i["c2"]],
    ]
    return "\r\n".join(",".join(f'"{cell}"' if " " in cell else cell for cell in row) for row in rows) + "\r\n"


def upload(client, text: str, name="day.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(PAGE, {"sheet": SimpleUploadedFile(name, text.encode(), content_type="text/csv")})


def logged_in(employee) -> Client:
    client = Client()
    client.force_login(employee.user)
    return client


def test_the_csv_of_a_day_is_the_same_sheet_as_the_apis(site, day, world):
    tables, people = world
    expected = full_sheet(site, day, people)
    expected["openers"][1]["counted_by"] = people["sm"].initials  # the CSV names everyone by initials
    for entry in expected["count"]["entries"]:
        entry.setdefault("forms", None)
        entry.pop("forms")
    parsed = day_sheet_csv.to_sheet(full_csv(day, people), site)
    assert parsed.errors == {}
    assert parsed.sheet == expected
    assert parsed.rows["slips[1]"] == 11 and parsed.rows["count.entries[3]"] == 22


def test_a_sheet_written_as_csv_reads_back_the_same(site, day, world):
    tables, people = world
    sheet = full_sheet(site, day, people)
    sheet["openers"][1]["counted_by"] = people["sm"].initials  # the CSV names everyone by initials
    sheet["slips"][0]["purpose"] = "tray_transfer"
    sheet["openers"][0]["variance_reason"] = "one rack short, found in the pit stand"
    sheet["drops"][0]["sole_employee_on_duty"] = True
    sheet["count"]["entries"][0]["forms"] = [{"kind": "fill", "number": 1001}, {"kind": "credit", "number": 501}]
    sheet["count"]["entries"][1]["currency"] = [{"denomination_cents": 25, "quantity": 4}]
    text = day_sheet_csv.to_csv(sheet)
    assert "25x40 5x100" in text and "0.25x4" in text and "fill:1001 credit:501" in text
    parsed = day_sheet_csv.to_sheet(text, site)
    assert parsed.errors == {}
    assert parsed.sheet == sheet


def test_the_template_downloads_and_reads_back_without_errors(site, world):
    tables, people = world
    response = logged_in(people["sm"]).get(PAGE + "template.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    text = response.content.decode()
    # North Dakota keeps no games-of-chance sessions: none of a session's columns (New York's, test_day_sheet_sessions).
    columns = [c for c in day_sheet_csv.COLUMNS if c not in day_sheet_csv.SESSION_COLUMNS]
    assert text.splitlines()[0].split(",") == columns
    parsed = day_sheet_csv.to_sheet(text, site)
    assert parsed.errors == {}
    assert parsed.sheet["slips"][0]["verified_by"] == "PB"
    # A shift manager's has no count rows, which only a gaming manager enters (the upload refused
    # them: "only a gaming manager may enter the count section"); a gaming manager's has them.
    assert "count" not in parsed.sheet and "\ncount_open," not in text and "\ncount_sign," not in text
    managers = logged_in(people["gm"]).get(PAGE + "template.csv").content.decode()
    assert day_sheet_csv.to_sheet(managers, site).sheet["count"]["members"] == ["CT", "IP"]
    # Its example is the site's own day and chips (a Kingston clerk read $25 chips it does not have).
    today = site_today(site)
    assert parsed.sheet["gaming_date"] == str(today)
    assert parsed.sheet["closers"][0]["counted_at"].startswith(
        f"{today + timedelta(days=1)}T01:00"
    )  # the morning after
    active = set(
        ChipDenomination.objects.filter(organization=site.organization, active=True).values_list(
            "value_cents", flat=True
        )
    )
    used = [line["denomination"] for line in parsed.sheet["openers"][0]["chips"]]
    assert used == sorted(active, reverse=True)[:2]
    assert (
        f"<code>{day_sheet_csv.chips_example(active)['opener']}</code>"
        in logged_in(people["sm"]).get(PAGE).content.decode()
    )


def test_a_filled_csv_uploaded_applies_the_whole_day(site, day, world):
    tables, people = world
    client = logged_in(people["gm"])
    assert client.get(PAGE).status_code == 200

    response = upload(client, full_csv(day, people))

    assert response.status_code == 302, response.content.decode()[:2000]
    summary = summaries.daily_summary(site, day)
    assert summary.total.drop_cents == 220_000 and summary.total.fills_cents == 50_000 and summary.gaming_day_closed
    page = client.get(PAGE).content.decode()
    assert f"Day sheet of {day} applied: 2 openers, 3 dealer shifts, 2 slips" in page


def test_every_error_of_a_csv_is_shown_at_its_row_and_nothing_changes(site, day, world):
    tables, people = world
    text = full_csv(day, people)
    text = text.replace(
        f"1,fill,1001,,,20:00,{people['ca'].initials},25x20", f"1,fill,1001,,,20:00,{people['ca'].initials},25x0"
    )
    text = text.replace("01:01", "1:61")
    before = row_counts()

    response = upload(logged_in(people["gm"]), text)

    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="sheet-errors"' in page and "Nothing was changed." in page
    assert "row 14, column at" in page and "is not a time of day" in page
    assert row_counts() == before

    text = text.replace("1:61", "01:01")  # the cells are right now; the services' rules speak next
    response = upload(logged_in(people["gm"]), text)
    assert response.status_code == 400
    assert "row 10, column chips (slips[0].chips[0].quantity)" in response.content.decode()
    assert row_counts() == before and not GamingDay.objects.exists()


def test_a_site_exchanging_boxes_at_each_dealer_change_names_the_dealer_on_its_drop_row(site, day, world):
    """Bismarck and Medora exchange boxes at each dealer change: their filled template was refused
    at "row 7, drops[0].dealer_shift: name the dealer shift", the CSV having no column for it. The
    drop row names the dealer (and table) whose shift the box served; the template shows it."""
    from counts.models import BoxExchange, Drop
    from counts.services import update_count_settings
    from floor.models import DealerShift

    tables, people = world
    update_count_settings(acting_user=people["gm"].user, site=site, box_exchange=BoxExchange.DEALER_SHIFT)
    i = {key: person.initials for key, person in people.items()}
    template = logged_in(people["gm"]).get(PAGE + "template.csv").content.decode()
    [drop_row] = [row for row in csv.DictReader(io.StringIO(template)) if row["section"] == "drop"]
    assert (drop_row["table"], drop_row["dealer"]) == ("1", "DL")
    head = "section,gaming_date,table,dealer,box,at,by,chips,escorted_by,storage_place,key_holder\r\n"
    rows = [
        f"day,{day.isoformat()}",
        f"open,,,,,17:55,{i['sm']}",
        f"opener,,1,,,18:00,{i['sm']},{chips_cell(TRAY)}",
        f"dealer_shift,,1,{i['d1']},,18:05,{i['sm']}",
        f"dealer_shift,,1,{i['d3']},,22:00,{i['sm']},{chips_cell(CHANGE)}",
        f"drop,,1,{i['d1']},1,22:00,{i['sm']},,{i['pb']},office safe,{i['c1']}",
    ]
    wrong = upload(logged_in(people["gm"]), head + "\r\n".join([*rows[:-1], rows[-1].replace(i["d1"], i["d2"], 1)]))
    assert wrong.status_code == 400
    assert f"row 7, column dealer</code>: House control: no dealer_shift row of {i['d2']} at table 1" in html.unescape(
        wrong.content.decode()
    )
    response = upload(logged_in(people["gm"]), head + "\r\n".join(rows) + "\r\n")
    assert response.status_code == 302, html.unescape(response.content.decode())[-3000:]
    first = DealerShift.objects.get(dealer=people["d1"])
    assert Drop.objects.get().dealer_shift_id == first.pk


def test_a_refusal_by_a_service_is_shown_at_its_row(site, day, world):
    tables, people = world
    text = full_csv(day, people).replace(f"20:01,{people['pb'].initials}", f"20:01,{people['d2'].initials}")
    response = upload(logged_in(people["gm"]), text)
    assert response.status_code == 400
    page = response.content.decode()
    assert "row 10, column verified_by" in page
    assert "ND 99-01.3-08-05(5): only a shift manager or pit boss may verify a slip." in page
    assert not GamingDay.objects.exists()


def test_the_page_is_for_those_who_may_enter_a_sheet(site, day, world):
    tables, people = world
    response = logged_in(people["pb"]).get(PAGE)
    assert response.status_code == 403
    assert "House control: only a gaming manager or shift manager may enter a day sheet" in response.content.decode()
    response = upload(logged_in(people["sm"]), full_csv(day, people))  # the count section: gaming managers only
    assert (
        response.status_code == 403 and "only a gaming manager may enter the count section" in response.content.decode()
    )
    assert not GamingDay.objects.exists()


def test_a_file_that_is_no_csv_of_a_day_is_refused_with_a_reason(site, world):
    tables, people = world
    client = logged_in(people["gm"])
    response = upload(client, "just,some\nwords,here\n")
    assert response.status_code == 400 and "no &#x27;section&#x27; column" in response.content.decode()
    response = client.post(PAGE, {"sheet": ""})
    assert response.status_code == 400
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(PAGE, {"sheet": SimpleUploadedFile("x.csv", b"\xff\xfe\x00bad", content_type="text/csv")})
    assert response.status_code == 400 and "House control: save the file as CSV in UTF-8." in response.content.decode()


def test_a_sheet_holding_dates_and_times_is_written_in_iso_8601_with_the_offset():
    from datetime import datetime, timedelta, timezone

    opened = datetime(2026, 7, 1, 22, 5, tzinfo=timezone(timedelta(hours=-5)))
    text = day_sheet_csv.to_csv({"gaming_date": date(2026, 7, 1), "open": {"opened_at": opened, "opened_by": "SM"}})
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["gaming_date"] == "2026-07-01" and rows[1]["at"] == "2026-07-01T22:05:00-05:00"
    assert not text.startswith("\ufeff")


def test_a_fees_only_site_says_why_it_takes_no_day_sheet_and_refuses_one(site, day, world):
    """At a Washington blackjack (fees) site the page, out of its menu but opened by address,
    offered the whole day's CSV of openers, slips, drops and counts: it now says why none is
    entered there, citing the fees rule, with no form, and a file posted anyway is refused, nothing written."""
    tables, people = world
    site.jurisdiction = "WA-BJ"
    site.save()
    client = logged_in(people["gm"])
    page = client.get(PAGE).content.decode()
    said = html.unescape(page.split('id="not-here">')[1].split("</div>")[0])
    assert said.startswith("WAC 230-40-125(1) (1999 proposed amendment): the house's revenue at ")
    assert 'id="day-sheet-form"' not in page and 'id="download-template"' not in page
    response = upload(client, full_csv(day, people))
    assert response.status_code == 400 and 'id="not-here"' in response.content.decode()
    assert not GamingDay.objects.exists()


def test_an_error_is_named_by_the_csvs_own_column():
    """The sheet's field names are the API's: an opener's reason is `variance_reason` there but
    `note` in the CSV, a slip's time `prepared_at` there but `at`. The page named the API's path
    ("row 4, openers[0].variance_reason"), a column the file does not have."""
    sheet = day_sheet_csv.CsvSheet(None)
    sheet.rows = {"openers[0]": 4, "slips[1]": 7, "count": 20, "count.entries[2]": 23}
    assert sheet.where("openers[0].variance_reason") == "row 4, column note"
    assert sheet.where("slips[1].prepared_at") == "row 7, column at"
    assert sheet.where("slips[1].chips[0].quantity") == "row 7, column chips (slips[1].chips[0].quantity)"
    assert sheet.where("count.members") == "row 20, column members"
    assert sheet.where("count.entries[2].currency[1].quantity") == (
        "row 23, column currency (count.entries[2].currency[1].quantity)"
    )
    assert sheet.where("slips[1]") == "row 7, slips[1]"  # the row as a whole: no column to name
    assert sheet.where("sheet") == "sheet"


def test_a_drop_naming_its_dealer_shift_reads_back_from_its_csv(site):
    sheet = {
        "gaming_date": "2026-11-13",
        "dealer_shifts": [
            {"table": 1, "dealer": "DL", "started_at": "2026-11-13T18:05:00-06:00", "started_by": "SM"},
            {"table": 1, "dealer": "DX", "started_at": "2026-11-13T22:00:00-06:00", "started_by": "SM"},
        ],
        "drops": [{"box": 1, "removed_at": "2026-11-13T23:00:00-06:00", "removed_by": "SM", "dealer_shift": 1}],
    }
    read = day_sheet_csv.to_sheet(day_sheet_csv.to_csv(sheet), site)
    assert not read.errors and read.sheet["drops"] == sheet["drops"]
