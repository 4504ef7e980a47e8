from django.core.management.base import BaseCommand

from cardroom.demo import DEMO_PASSWORD, PEOPLE, load_demo


class Command(BaseCommand):
    help = "Load the demo organization, sites, tables, chips and one login per role (idempotent)."

    def handle(self, *args, **options):
        demo = load_demo()
        for extend in _extensions():
            extend(demo)
        self.stdout.write(self.style.SUCCESS("Demo data ready: http://127.0.0.1:8000/"))
        self.stdout.write(f"Every demo login uses the password {DEMO_PASSWORD!r}:")
        for login, first, last, _, role, _, sites in PEOPLE:
            where = "all sites" if sites == "*" else ", ".join(demo["sites"][k].name for k in sites.split())
            self.stdout.write(f"  {login:<9} {role.label:<20} {first} {last} ({where})")


def _extensions():
    """The domain apps' demo builders, run after the core data exists."""
    from importlib import import_module

    for module_name, function_name in (
        ("accounting.demo", "extend_demo"),
        ("cage.demo", "extend_demo"),
        ("counts.demo", "extend_demo"),
        ("surveillance.demo", "extend_demo"),
    ):
        try:
            module = import_module(module_name)
        except ModuleNotFoundError:
            continue
        if hasattr(module, function_name):
            yield getattr(module, function_name)
