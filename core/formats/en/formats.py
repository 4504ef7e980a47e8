"""One way to write a date on every page (issue 15): ISO 8601, `2026-11-23`, the form the
date fields take, the API answers and the exports carry; times on the 24-hour clock. Django
formats any date or time a template prints without a format with these (FORMAT_MODULE_PATH),
the admin's included. Input still accepts the locale's other ways (`11/23/2026`)."""

DATE_FORMAT = "Y-m-d"
SHORT_DATE_FORMAT = "Y-m-d"
DATETIME_FORMAT = "Y-m-d H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
TIME_FORMAT = "H:i"
