from django.apps import AppConfig


class CountsConfig(AppConfig):
    name = "counts"
    verbose_name = "Drop boxes and counts"

    def ready(self):
        from cardroom.models import Role
        from cardroom.navigation import register

        readers = {Role.COUNT_TEAM, Role.SHIFT_MANAGER, Role.GAMING_MANAGER, Role.AUDITOR}
        register("Counts", "Count sessions", "counts:sessions", readers)
        register("Counts", "Drop boxes and custody", "counts:boxes", readers)
        register("Administration", "Drop boxes and count settings", "counts:drop_boxes", {Role.GAMING_MANAGER})
