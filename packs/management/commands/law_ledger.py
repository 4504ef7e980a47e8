from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core.rules import HOUSE_CONTROL
from packs.ledger import LEDGER_PATH, LedgerRefused, drift, law_data, read_ledger, record, write_ledger


class Command(BaseCommand):
    help = (
        "Check the packs' law held in code against the law ledger (packs/law_ledger.json); `--record` adds "
        "new data, dated today; `--record --correct KEY@DATE --note '...'` records a corrected transcription."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--record", dest="recording", action="store_true", help="record the packs' new data in the ledger"
        )
        parser.add_argument(
            "--correct",
            action="append",
            default=[],
            metavar="KEY@DATE",
            help="a datum in force whose recorded value was mistranscribed (repeatable)",
        )
        parser.add_argument("--note", default="", help="what was wrong (required with --correct)")
        parser.add_argument("--ledger", type=Path, default=LEDGER_PATH, help="the ledger file")

    def handle(self, *args, recording=False, correct=(), note="", ledger=LEDGER_PATH, **options):
        if correct and not recording:
            raise CommandError(f"--correct: {HOUSE_CONTROL}: a correction is recorded; give --record too.")
        entries, data, today = read_ledger(ledger), law_data(), timezone.localdate()
        if not recording:
            messages = drift(entries, data, today)
            if messages:
                raise CommandError("\n".join(messages))
            self.stdout.write(f"The law ledger holds the packs' {len(data)} data as they are.")
            return
        try:
            recorded = record(entries, data, today, {where: note for where in correct})
        except LedgerRefused as exc:
            raise CommandError(str(exc)) from exc
        write_ledger(recorded, ledger)
        self.stdout.write(f"Recorded {len(recorded) - len(entries)} new entries in {ledger}.")
