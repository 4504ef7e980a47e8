"""Settings, read from environment variables with safe defaults for `make run`."""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

from core.limits import DEFAULT_PAGE_SIZE, MAX_BODY_BYTES

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    return env_str(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    return int(env_str(name, str(default)))


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-change-me-in-production" if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("SECRET_KEY must be set when DEBUG is false")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
VAR_DIR = Path(env_str("VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)
# Where `audit_anchor` appends the audit chains' heads (core.audit_anchors): keep it, or a
# copy of it, beyond the reach of whoever can write the database.
AUDIT_ANCHOR_DIR = Path(env_str("AUDIT_ANCHOR_DIR", str(VAR_DIR / "audit-anchors")))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "simple_history",
    "sequences",
    "axes",
    "core",
    "cardroom",
    "packs",
    "floor",
    "accounting",
    "cage",
    "counts",
    "surveillance",
    "tournaments",
    "approvals",
    "fees",
    "compliance",
    "statefiling",
    "reports",
    "dashboard",
    "registry",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "core.parsers.KeptTextMiddleware",  # the API's query and headers hold text a database keeps
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "config.middleware.CurrentSiteMiddleware",
    "config.middleware.StationWorkMiddleware",  # a station opens only its kind's pages
    "axes.middleware.AxesMiddleware",
    "core.idempotency.IdempotencyMiddleware",  # after authentication: keys are per user
    "core.form_tokens.FormTokenMiddleware",  # a page's form sent twice writes once (after messages)
    "core.database_refusals.DatabaseRefusalMiddleware",  # a page's IntegrityError said, never a 500
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.navigation",
            ],
        },
    },
]

# SQLite by default: WAL mode and IMMEDIATE transactions so that concurrent writers
# queue instead of failing with "database is locked" (see shared/docs/stack.md).
_SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 30,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'cardroom.sqlite3'}")
# Persistent connections in production (a connection per request costs 20-60% of throughput,
# issue 18), checked before reuse; none while developing (DEBUG), where runserver threads come and go.
CONN_MAX_AGE = env_int("CONN_MAX_AGE", 0 if DEBUG else 60)
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL, conn_max_age=CONN_MAX_AGE, conn_health_checks=CONN_MAX_AGE != 0)
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = _SQLITE_OPTIONS
    # A file, not ":memory:", so that several threads (concurrency tests, an in-process
    # Celery worker) share the test database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Five wrong passwords lock the account (per username) for a while.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 30))
AXES_LOCKOUT_PARAMETERS = ["username"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The client's address, the same for axes as for the sign-in limits (core.client_address).
AXES_CLIENT_IP_CALLABLE = "core.client_address.client_address"
# Lockout is per account, not per address: pit-stand terminals are shared, and locking an
# address would lock out the whole shift. axes warns about that choice; it is deliberate.
SILENCED_SYSTEM_CHECKS = ["axes.W006"]

# Sessions last one long shift.
SESSION_ENGINE = "core.sessions"  # a cookie naming a key no database keeps names no session
SESSION_COOKIE_AGE = 12 * 60 * 60
SESSION_EXPIRE_AT_BROWSER_CLOSE = True

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/Chicago"
USE_I18N = True
USE_TZ = True
# One date format on every page, ISO 8601 (core/formats/en/formats.py).
FORMAT_MODULE_PATH = ["core.formats"]

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "staticfiles")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
MEDIA_ROOT = VAR_DIR / "media"
# Request bodies (form and JSON alike: core.parsers) are at most this large.
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_BODY_BYTES

# How many proxies (nginx, a load balancer...) stand in front of gunicorn, each appending to
# X-Forwarded-For: the client's address is the hop the nearest one vouches for. 0 (the default):
# clients connect directly, and X-Forwarded-For, which any client can write, is ignored.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "core.tokens.TokenAuthentication",  # knox's; first: a bad or expired token answers 401
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Writes are limited per user, sign-ins per client address (core/throttles.py);
    # over the limit the API answers 429 saying which limit and when to try again.
    "DEFAULT_THROTTLE_CLASSES": ["core.throttles.WriteRateThrottle"],
    "NUM_PROXIES": TRUSTED_PROXIES,  # DRF's own reading agrees (the throttles use core.client_address)
    "DEFAULT_THROTTLE_RATES": {
        "login": env_str("THROTTLE_LOGIN_RATE", "10/minute"),
        "writes": env_str("THROTTLE_WRITE_RATE", "300/minute"),
    },
    # A station (shared terminal) reads only what the pit needs (cardroom.access.STATION_READS).
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "cardroom.api_permissions.StationReadsThePit",
    ],
    # Input bounds (core.limits): ids, numbers and dates in filters, pages, body size and
    # JSON depth; the schema documents every error answer.
    "DEFAULT_FILTER_BACKENDS": ["core.api_filters.FilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "core.api_filters.Pagination",
    "PAGE_SIZE": DEFAULT_PAGE_SIZE,
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "core.parsers.FormParser",
        "core.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "core.api_schema.ErrorDocumentingSchema",
    # JSON only: the browsable API's pages carry inline styles the CSP refuses; Swagger UI at
    # /api/docs/ is the API's page for people.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    # `?format=` belongs to the report downloads (pdf, csv, xlsx), not to DRF's negotiation.
    "URL_FORMAT_OVERRIDE": None,
}
# API tokens (django-rest-knox): a new token per sign-in, stored only as a SHA-512 digest,
# valid for one long shift like a browser session, revoked by logging out, by a lockout and by
# a password change (core/tokens.py).
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env_int("API_TOKEN_HOURS", 12)),
    "AUTO_REFRESH": False,
    "AUTH_HEADER_PREFIX": "Token",
}

# The throttles count in the cache: one per process by default; with several gunicorn workers
# set CACHE_URL=redis://... so that they share the counts.
CACHE_URL = env_str("CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Card-room back office API",
    "DESCRIPTION": "Accounting and compliance for a card room's tables, each site under its own jurisdiction's rules.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No badge fetched from validator.swagger.io: nothing leaves the site (CSP: img-src 'self').
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Bodies are documented as JSON, the API's format (form bodies are read too, for the
    # browser): one content type per body, so that a generated client sends JSON.
    "PARSER_WHITELIST": ["core.parsers.JSONParser"],
    # The state registry's API has its own schema (/registry/api/v1/schema/).
    "PREPROCESSING_HOOKS": ["core.api_schema.organization_document"],
    # Operations tagged by the segment after /api ("v1"), whatever other endpoints the hook leaves
    # out (drf-spectacular would otherwise take the common prefix of what is left).
    "SCHEMA_PATH_PREFIX": r"/api",
    # The enums' hook, then request bodies' additionalProperties: false (strict input).
    "POSTPROCESSING_HOOKS": ["core.api_schema.forbid_unknown_fields"],
    # Several records have a "kind" (or "location"): name each choice set after its model.
    "ENUM_NAME_OVERRIDES": {
        # A site's jurisdiction: the packs of the registry (named by the pack); an approval's, a
        # licence's and internal controls': the Jurisdiction choices (named by the texts).
        "JurisdictionEnum": "cardroom.models.jurisdiction_choices",
        "ApprovalJurisdictionEnum": "cardroom.models.Jurisdiction",
        "RoleEnum": "cardroom.models.Role",
        "EmployeeRelationKindEnum": "cardroom.models.EmployeeRelation.Kind",
        "TableLocationEnum": "cardroom.models.Table.Location",
        "TrayCountKindEnum": "floor.models.TableInventory.Kind",
        "CardCheckKindEnum": "floor.models.CardCheck.Kind",
        "SlipKindEnum": "floor.models.SlipKind",
        "SlipStepKindEnum": "floor.models.SlipStep.Kind",
        "BankCountKindEnum": "cage.models.BankCount.Kind",
        "FundEnum": "cage.models.Fund",
        "ChipLocationEnum": "cage.models.Location",
        "ChipMovementKindEnum": "cage.models.ChipMovement.Kind",
        "EquipmentKindEnum": "surveillance.models.Equipment.Kind",
        "EquipmentChangeKindEnum": "surveillance.models.EquipmentChange.Kind",
        "OutageKindEnum": "surveillance.models.Outage.Kind",
        "WrittenProcedureKindEnum": "approvals.models.WrittenProcedure.Kind",
        "AlertStepKindEnum": "compliance.models.AlertStep.Kind",
        "NotificationKindEnum": "compliance.models.Notification.Kind",
        "PrizeKindEnum": "tournaments.models.PrizeKind",
        "BlackjackPayoutEnum": "cardroom.models.Table.BlackjackPayout",
        "DoubleOnEnum": "cardroom.models.Table.DoubleOn",
        "PayoutRoundingEnum": "cardroom.models.Table.PayoutRounding",
        "SplitPairsEnum": "cardroom.models.Table.SplitPairs",
        "SurrenderEnum": "cardroom.models.Table.Surrender",
        "DealtFromEnum": "cardroom.models.Table.DealtFrom",
        "BankerEnum": "cardroom.models.Table.Banker",
        "LicenceTieOptionEnum": "approvals.models.Licence.TieOption",
        "TableTieOptionEnum": [(1, "1"), (2, "2"), (3, "3")],
    },
}

# Celery: the embedded default is the filesystem broker under var/, so `make run` needs
# no service; production sets CELERY_BROKER_URL=redis://...
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://")
CELERY_FS_ROOT = Path(env_str("CELERY_FS_ROOT", str(VAR_DIR / "celery")))
if CELERY_BROKER_URL.startswith("filesystem://"):
    for _sub in ("queue", "processed", "control"):
        (CELERY_FS_ROOT / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT = "core.broker:Transport"  # kombu's, writing each message whole
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_FS_ROOT / "queue"),
        "data_folder_out": str(CELERY_FS_ROOT / "queue"),
        "processed_folder": str(CELERY_FS_ROOT / "processed"),
        "control_folder": str(CELERY_FS_ROOT / "control"),
        "store_processed": False,
        # A worker takes one task at a time (below): it looks for the next ten times a second,
        # not once (kombu's default for a polled transport).
        "polling_interval": 0.1,
    }
# Results are kept only by the tasks that need them (a chord's chunks and its callback, which
# gather a fanned-out compliance run): on Redis when the broker is Redis, else in files beside
# the filesystem broker's folders.
CELERY_RESULT_BACKEND = env_str(
    "CELERY_RESULT_BACKEND",
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else f"file://{CELERY_FS_ROOT / 'results'}",
)
if CELERY_RESULT_BACKEND.startswith("file://"):
    Path(CELERY_RESULT_BACKEND.removeprefix("file://")).mkdir(parents=True, exist_ok=True)
# A chord over file results has no native join: Celery's `chord_unlock` looks whether the chunks
# are done a second after the chord is sent and then every this many seconds (Celery's default, a
# second, kept a compliance scan whose last chunk ended just after that first look waiting a second
# more: benchmarks/HISTORY.md). A look is one small task on the filesystem broker. On Redis the
# chord counts its chunks as they end: not used.
CELERY_RESULT_CHORD_RETRY_INTERVAL = 0.1
CELERY_RESULT_EXPIRES = timedelta(days=1)
# Sites per chunk of a fanned-out compliance run (compliance.tasks).
COMPLIANCE_CHUNK_SITES = env_int("COMPLIANCE_CHUNK_SITES", 50)
# The Celery worker processes that take those chunks: with fewer sites than this many full
# chunks, each chunk is about an equal share of the sites, so every worker has work.
COMPLIANCE_WORKERS = env_int("COMPLIANCE_WORKERS", 1)
# The slices of the nightly audit verification (core.tasks.verify_audit_log), one task each:
# as many as the workers, so each reads about an equal share of the rows.
AUDIT_VERIFY_WORKERS = env_int("AUDIT_VERIFY_WORKERS", COMPLIANCE_WORKERS)
# How often the pit terminal tries again to send the steps waiting in its outbox, besides when
# the browser says it is back online (static/floor/pit_terminal.js, floor.views._outbox).
PIT_OUTBOX_RETRY_SECONDS = 3
# How often the pit board (its page and the home page's panel) and the slip queues ask for a
# fresh copy (htmx polling; floor.views, floor/templatetags/floor_polling.py).
PIT_REFRESH_SECONDS = 5
# Ids sent in one query at most (core.id_lists): under SQLite's 32,766 host parameters and
# PostgreSQL's 65,535, with room for the query's others.
ID_CHUNK = 5_000
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "cardroom")
CELERY_TASK_ACKS_LATE = True
# A worker takes the next task only when it is free: a compliance chunk runs for seconds, and a
# worker that had reserved four (Celery's default) kept them while the others sat idle at the
# end of a fanned-out run.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "cardroom@localhost")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}

# Security headers. The Content-Security-Policy (config/csp.py) holds in development too, so
# that a page breaking it is seen before production: only the app's own static files run, no
# inline script, style or event handler; images may be data: URIs (Bootstrap's icons are).
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    # One style attribute is allowed by its hash: `border-top: 0` in django-simple-history's
    # admin history page (sha256 of exactly that text; no other inline style passes).
    "style-src": ["'self'", "'unsafe-hashes'", "'sha256-XMXSevYjgSjXgRafBFDvtjwX+yyWLrxfso9DcNZ9UXM='"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# Production sits behind a TLS-terminating proxy that sets X-Forwarded-Proto (README).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Every script reads the CSRF token from the page, none from the cookie.
    CSRF_COOKIE_HTTPONLY = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
