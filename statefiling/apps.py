from django.apps import AppConfig


class StatefilingConfig(AppConfig):
    name = "statefiling"
    verbose_name = "Filing with the state"

    def ready(self):
        from core import hooks

        from . import services

        hooks.QUARTER_FILED.register(services.record_filing)
        hooks.CHAINS_ANCHORED.register(services.queue_anchors)
        hooks.REGISTRY_CHECK.register(services.verify_against_registry)
        hooks.REGISTRY_ANCHORS.register(services.registry_anchors)
        hooks.AMENDMENT_RECORDED.register(services.queue_amendment)
