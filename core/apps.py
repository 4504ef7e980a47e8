from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The platform: the audit chain, append-only records, idempotency, tokens, the API's
    conventions, PDF furniture, money, moments and periods. It sits below every domain app and
    imports none of them; what it must ask them goes through its hooks (`core.hooks`)."""

    name = "core"
    verbose_name = "Platform"

    def ready(self):
        from . import (
            api,
            audit_rows,
            checks,  # noqa: F401  (registers the deploy checks)
            citations,
            history,
            hooks,
            tokens,
        )

        hooks.ROW_EVENTS.register(audit_rows.record_rows)
        history.build_managers_once()
        tokens.connect()
        citations.connect()  # a site's pack is read once per request or task, never kept across them
        api.write_moments_in_utc()  # the API's moments in UTC, never the settings' zone (core.api.moment_in_utc)
