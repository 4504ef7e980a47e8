from django.apps import AppConfig


class StatefilingConfig(AppConfig):
    name = "statefiling"
    verbose_name = "Filing with the state"

    def ready(self):
        from accounting.services import register_quarter_filed
        from cardroom.audit_anchors import register_anchored

        from . import services

        register_quarter_filed(services.queue_filing)
        register_anchored(services.queue_anchors)
