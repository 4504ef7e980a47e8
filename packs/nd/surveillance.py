"""North Dakota's law for video surveillance, outages, review programs (08-04): rule key -> citation.

Each key is an obligation of 08-04 (a trigger, a deadline, a $2 cap, a retention period) or a
control it states (who handles video); where another pack states none of them, its sites may
still keep surveillance records as the house's own control, held to none of ND's deadlines.

`LIMITS`: the numbers of 08-04 the surveillance area asks for (`surveillance.rules`), each with its
section and the date the text in force took effect (08-04 as amended July 1, 2018)."""

from datetime import date, timedelta

from ..base import Limit

ND_08_04_DATE = date(2018, 7, 1)  # 08-04 amended effective July 1, 2018
ND_08_16_DATE = date(2018, 7, 1)  # 08-16 amended effective July 1, 2018

CITATIONS: dict[str, str] = {
    # Opening paragraph: the activity that requires a system, 45 days to have it operational (or
    # wagers limited to $2), a system for each regularly located table.
    "surveillance.system": "ND 99-01.3-08-04",
    # Opening paragraph: a temporary special-event table, 14 or fewer consecutive days, two events a quarter.
    "surveillance.special_event": "ND 99-01.3-08-04",
    # (1)(c): the camera's field of view records the face of the dealing shoe, every betting space, the
    # discard holder, the chip tray, the currency plunger and the table number; (2): the site's
    # identification too where the organization has more than one site; (4): a clean dome and a proper
    # field of view. The daily review (7) documents it.
    "surveillance.field_of_view": "ND 99-01.3-08-04(1)(c), (2), (4)",
    # (5): only a gaming or shift manager or an independent person handles recorders and video.
    "surveillance.video_access": "ND 99-01.3-08-04(5)",
    "surveillance.video_access_stored": "ND 99-01.3-08-04(5)(a)",
    # (5)(b): a table is recorded from when chips are first made available until it closes.
    "surveillance.recording_covers_play": "ND 99-01.3-08-04(5)(b)",
    # (5)(c): two recorders for one table overlap by ten minutes.
    "surveillance.recorder_overlap": "ND 99-01.3-08-04(5)(c)",
    # (6): recorded video kept thirty days.
    "surveillance.retention": "ND 99-01.3-08-04(6)",
    # (7): the daily review of each table's camera; (7): repair within 48 hours of activity or
    # four calendar days, else close the table or limit wagers to $2.
    "surveillance.daily_review": "ND 99-01.3-08-04(7)",
    "surveillance.daily_review_record": "ND 99-01.3-08-16(1)(d)",
    "surveillance.outage_deadline": "ND 99-01.3-08-04(7)",
    # (9): the low-hold video review program, by someone who did not deal the shift reviewed.
    "surveillance.review_program": "ND 99-01.3-08-04(9)",
    # (10): half of an approved vendor's price deferred until the video's clarity is approved.
    "surveillance.vendor_deferral": "ND 99-01.3-08-04(10)",
    # (11): a sample recording to the attorney general within fourteen days of a change.
    "surveillance.video_sample": "ND 99-01.3-08-04(11)",
    # The attorney general's form evaluating a sample recording.
    "surveillance.sample_evaluation_form": "SFN 19857",
    # 08-16(1)(h): video review documentation kept one year from the quarter's end.
    "surveillance.review_document_retention": "ND 99-01.3-08-16(1)(h)",
}

LIMITS: tuple[Limit, ...] = (
    # (7): repair within forty-eight hours of activity on the table or four calendar days, whichever
    # comes first; after that the table is closed or its wagers limited to two dollars.
    Limit("surveillance.outage_activity", timedelta(hours=48), "48 hours of activity on the table",
          "ND 99-01.3-08-04(7)", ND_08_04_DATE),
    Limit("surveillance.outage_calendar", timedelta(days=4), "4 calendar days", "ND 99-01.3-08-04(7)", ND_08_04_DATE),
    Limit("surveillance.outage_wager_cap_cents", 200, "wagers limited to $2.00", "ND 99-01.3-08-04(7)", ND_08_04_DATE),
    # (5)(c): two recorders in sequence for one table overlap by ten minutes.
    Limit("surveillance.recorder_overlap", timedelta(minutes=10), "10 minutes", "ND 99-01.3-08-04(5)(c)",
          ND_08_04_DATE),
    # (6): recorded video is kept in a safe place for thirty days.
    Limit("surveillance.retention", timedelta(days=30), "30 days", "ND 99-01.3-08-04(6)", ND_08_04_DATE),
    # Opening paragraph: a system operational within forty-five days, or wagers limited to two dollars.
    Limit("surveillance.operational_within", timedelta(days=45), "45 days", "ND 99-01.3-08-04", ND_08_04_DATE),
    Limit("surveillance.not_operational_wager_cap_cents", 200, "wagers limited to $2.00", "ND 99-01.3-08-04",
          ND_08_04_DATE),
    # Opening paragraph: a special-event table for fourteen or fewer consecutive days, at most two
    # events a quarter, needs no system.
    Limit("surveillance.special_event_max_days", 14, "14 or fewer consecutive days", "ND 99-01.3-08-04",
          ND_08_04_DATE),
    # (11): a sample recording to the attorney general within fourteen days of an equipment change.
    Limit("surveillance.sample_due", timedelta(days=14), "14 days", "ND 99-01.3-08-04(11)", ND_08_04_DATE),
    # (10): at least half of an approved vendor's price deferred until the video's clarity is approved.
    Limit("surveillance.vendor_deferred_share", (1, 2), "at least half of the price", "ND 99-01.3-08-04(10)",
          ND_08_04_DATE),
    Limit("surveillance.special_event_max_per_quarter", 2, "not more than two events per quarter",
          "ND 99-01.3-08-04", ND_08_04_DATE),
    # (9): low hold for a quarter -> a minimum of one hour per week of video for each active table
    # reviewed and documented, for six continuous weeks or until the reason is documented.
    Limit("surveillance.review_program_length", timedelta(weeks=6), "6 continuous weeks", "ND 99-01.3-08-04(9)",
          ND_08_04_DATE),
    Limit("surveillance.review_min_footage", timedelta(hours=1), "at least one hour per week", "ND 99-01.3-08-04(9)",
          ND_08_04_DATE),
    # 08-16(1)(h): video review documentation retained for one year from the end of the quarter.
    Limit("surveillance.review_document_retention", timedelta(days=365), "one year from the end of the quarter",
          "ND 99-01.3-08-16(1)(h)", ND_08_16_DATE),
)  # fmt: skip
