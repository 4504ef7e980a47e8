from decimal import Decimal, InvalidOperation
from functools import lru_cache

from django import template
from django.core.signals import setting_changed
from django.templatetags.static import static
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from core.form_tokens import FIELD as FORM_TOKEN_FIELD
from core.form_tokens import new_token
from core.money import deposit_text, format_money, format_ratio

register = template.Library()

# The stylesheets and scripts every page loads (base.html): (tag, attribute, path, attributes).
HEAD_FILES = (
    ("link", "href", "cardroom/favicon.svg", ' rel="icon"', ' type="image/svg+xml"'),
    ("link", "href", "vendor/bootstrap.min.css", ' rel="stylesheet"', ""),
    ("link", "href", "cardroom/app.css", ' rel="stylesheet"', ""),
    ("script", "src", "vendor/htmx.min.js", "", " defer"),
    ("script", "src", "vendor/bootstrap.bundle.min.js", "", " defer"),
    ("script", "src", "cardroom/app.js", "", " defer"),
)


@register.simple_tag
def head_files() -> SafeString:
    """base.html's <link>s and <script>s, as its `static` tags wrote them: found once per process
    (every page draws them; the static files' names do not change while it runs, issue 37)."""
    return _head_files()


@lru_cache(maxsize=1)
def _head_files() -> SafeString:
    lines = []
    for tag, attribute, path, before, after in HEAD_FILES:
        url = static(path)
        if tag == "link":
            lines.append(format_html('<link{} {}="{}"{}>', SafeString(before), attribute, url, SafeString(after)))
        else:
            lines.append(format_html('<script {}="{}"{}></script>', attribute, url, SafeString(after)))
    return format_html_join("\n  ", "{}", ((line,) for line in lines))


@register.simple_tag
def fixed_url(name: str, **kwargs) -> str:
    """`{% url name key=value %}` of an address whose arguments are fixed in the template (none,
    or constants), reversed once per process (and script prefix): the navigation bar's addresses
    on every page, the daily page's forms' (issue 37)."""
    return _fixed_url(get_script_prefix(), get_urlconf(), name, tuple(sorted(kwargs.items())))


@lru_cache(maxsize=256)
def _fixed_url(prefix: str, urlconf, name: str, kwargs: tuple) -> str:
    return reverse(name, urlconf=urlconf, kwargs=dict(kwargs))  # under `prefix`, the script prefix reverse() reads


def _settings_changed(*, setting, **kwargs) -> None:
    """A test that changes where static files or addresses point finds them again."""
    if setting in ("STATIC_URL", "STATIC_ROOT", "STORAGES", "ROOT_URLCONF", "FORCE_SCRIPT_NAME"):
        _head_files.cache_clear()
        _fixed_url.cache_clear()


setting_changed.connect(_settings_changed)


@register.filter
def money(cents):
    return format_money(cents)


@register.filter
def abs_money(cents):
    """An amount whose sign its words already say ("Net cash short: $2.00"), as the PDF prints it."""
    return format_money(abs(cents))


@register.filter
def ratio(value):
    """A ratio as a percentage; a ratio as text (a received filing's "0.056673") too. Text that
    is not a number (a filing's "n/a") is shown as it is."""
    if value in (None, ""):
        return format_ratio(None)
    try:
        return format_ratio(Decimal(str(value)))
    except InvalidOperation:
        return str(value)


@register.filter
def retention(record) -> str:
    """'Retain until <date> (ND 99-01.3-08-16)' for a record with a retention date, else ''."""
    from cardroom.retention import retention_notice

    return retention_notice(record)


@register.filter
def deposit_money(cents):
    """The bank deposit a day calls for: money, "not known", or "none" with the shortfall."""
    return deposit_text(cents) or format_money(cents)


@register.filter
def known_money(cents):
    """A cash figure: money, or "not known" (never $0.00) where no count exists."""
    return "not known" if cents is None else format_money(cents)


@register.simple_tag
def form_token() -> SafeString:
    """A form's one-time token (core.form_tokens): drawn afresh with the page, so the same form sent
    twice writes once and the second copy is told "Already recorded"."""
    return format_html('<input type="hidden" name="{}" value="{}">', FORM_TOKEN_FIELD, new_token())
