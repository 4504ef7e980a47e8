from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounting import urls as accounting_urls
from cardroom import administration_views, views
from cardroom.admin import own_password_change
from cardroom.api import LogoutAllView, LogoutView, MeView, TokenView
from cardroom.forms import SignInForm
from core.api import api_not_found
from core.forms import refusing_with_400
from core.throttles import sign_in_limited
from dashboard import urls as dashboard_urls
from floor import urls as floor_urls

from .api_urls import routes as api_routes

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon),
    path(
        "login/",
        sign_in_limited(
            refusing_with_400(
                auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=SignInForm)
            )
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("switch-site/", views.switch_site, name="switch_site"),
    path("signed-in/", views.signed_in, name="signed_in"),
    path("signing-pin/", views.signing_pin, name="signing_pin"),
    path("setup/<str:kind>/", views.setup_list, name="setup_list"),
    path("setup/<str:kind>/new/", views.setup_edit, name="setup_new"),
    path("setup/<str:kind>/<int:pk>/", views.setup_edit, name="setup_edit"),
    path("setup/employees/<int:pk>/<str:what>/add/", views.employee_add, name="employee_add"),
    path("setup/employees/<int:pk>/<str:what>/<int:item_pk>/remove/", views.employee_remove, name="employee_remove"),
    path("administration/locked-accounts/", administration_views.locked_accounts, name="locked_accounts"),
    path("administration/stations/", administration_views.stations, name="stations"),
    path(
        "administration/stations/<int:pk>/deactivate/",
        administration_views.set_station_active,
        {"active": False},
        name="station_deactivate",
    ),
    path(
        "administration/stations/<int:pk>/reactivate/",
        administration_views.set_station_active,
        {"active": True},
        name="station_reactivate",
    ),
    path("floor/", include("floor.urls")),
    path("accounting/", include("accounting.urls")),
    path("cage/", include("cage.urls")),
    path("counts/", include("counts.urls")),
    path("surveillance/", include("surveillance.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("fees/", include("fees.urls")),
    path("approvals/", include("approvals.urls")),
    path("compliance/", include("compliance.urls")),
    path("reports/", include("reports.urls")),
    path("dashboard/", include("dashboard.urls")),
    path("registry/", include("registry.urls")),  # the regulator's side: pages and its licensees' API
    # Old addresses, moved when each app's pages went under its own prefix (issue 34): 301s.
    path("accounting/", include(floor_urls.MOVED)),
    path("figures/", include(dashboard_urls.MOVED)),
    path("day-sheets/", include(accounting_urls.MOVED)),
    path("admin/login/", sign_in_limited(refusing_with_400(admin.site.login))),  # the sign-in limit, before admin's own
    path("admin/password_change/", admin.site.admin_view(own_password_change)),  # the product's password form
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_routes.urls)),
    path("api/v1/me/", MeView.as_view(), name="api_me"),
    path("api/v1/auth/token/", TokenView.as_view(), name="api_token"),
    path("api/v1/auth/logout/", LogoutView.as_view(), name="api_logout"),
    path("api/v1/auth/logout-all/", LogoutAllView.as_view(), name="api_logout_all"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script from its own URL, not inline (CSP).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger"),
    re_path(r"^api/", api_not_found),  # an API client gets JSON, never the HTML 404 page
]
