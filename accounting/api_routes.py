"""This app's API endpoints on /api/v1/ (config.api_urls): the figures, closing and
adjusting the books, filing a quarter, and day sheets."""

from . import api_day_sheets, api_figures


def register(routes) -> None:
    routes.path("sites/<int:pk>/daily-summary/", api_figures.DailySummaryView, name="api-daily-summary")
    routes.path("sites/<int:pk>/quarter-summary/", api_figures.QuarterSummaryView, name="api-quarter-summary")
    routes.path("employees/<int:pk>/percent-of-hold/", api_figures.DealerHoldView, name="api-dealer-hold")
    routes.path("organizations/<int:pk>/tax/", api_figures.OrganizationTaxView, name="api-organization-tax")
    routes.path("organizations/<int:pk>/other-games-agp/", api_figures.OtherGamesAgpView, name="api-other-games-agp")
    routes.path("sites/<int:pk>/close-books/", api_figures.CloseBooksView, name="api-close-books")
    routes.path("adjustments/", api_figures.AdjustmentsView, name="api-adjustments")
    routes.path("sites/<int:pk>/quarter-filing/", api_figures.QuarterFilingView, name="api-quarter-filing")
    routes.path("sites/<int:pk>/day-sheets/", api_day_sheets.DaySheetView, name="api-day-sheets")
