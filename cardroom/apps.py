from django.apps import AppConfig


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Card room"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from core import hooks

        from .access import access_for
        from .admin import restrict_platform_admins
        from .models import Site, site_jurisdiction

        restrict_platform_admins()
        hooks.ACCESS.register(access_for)
        hooks.SITE_JURISDICTION.register(site_jurisdiction)
        post_save.connect(_forget_site, sender=Site, dispatch_uid="citations-forget-site")
        post_delete.connect(_forget_site, sender=Site, dispatch_uid="citations-forget-site-deleted")


def _forget_site(sender, instance, **kwargs) -> None:
    """A saved or deleted site's jurisdiction is read afresh (`core.citations`)."""
    from core.citations import forget_site

    forget_site(instance.pk)
