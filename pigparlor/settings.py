"""Pig Parlor settings.

The embedded default needs no services: SQLite in WAL mode, the in-memory
channel layer, and the clock and bots inside the server process. Scaled out,
``DATABASE_URL`` picks PostgreSQL and ``REDIS_URL`` the Redis channel layer.

The defaults are safe to put in front of strangers: ``DEBUG`` is off unless
``DJANGO_DEBUG=1``, and without ``DJANGO_SECRET_KEY`` the key is made on first
run and kept in the data directory. Behind a TLS proxy, the ``DJANGO_HTTPS``
and ``DJANGO_BEHIND_PROXY`` switches turn on the rest (docs/operations.md).
"""
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from pigparlor import secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str) -> bool:
    return os.environ.get(name, "0") == "1"


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# What the site makes for itself and keeps between runs (the generated secret key).
DATA_DIR = Path(os.environ.get("PIGPARLOR_DATA_DIR") or BASE_DIR / "var")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or secret_key.load_or_create(DATA_DIR / "secret_key")
DEBUG = env_flag("DJANGO_DEBUG")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")
# Other origins whose forms and browser sockets are this site's (scheme://host[:port]).
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

# Behind a reverse proxy that sets X-Forwarded-For and X-Forwarded-Proto (and
# overwrites whatever a client sent in them): the client's address (for login
# throttling) and scheme come from those headers. ``serve`` reads the same flag.
BEHIND_PROXY = env_flag("DJANGO_BEHIND_PROXY")
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Served over HTTPS (by that proxy): secure cookies, http -> https redirects, HSTS.
HTTPS = env_flag("DJANGO_HTTPS")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000" if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "channels",
    "allauth",
    "allauth.account",
    # Two-factor sign-in (authenticator apps and recovery codes): pigparlor/accounts/mfa.py.
    "allauth.mfa",
    "pigparlor.tables",
    "pigparlor.api",
    "pigparlor.lobby",
    "pigparlor.accounts",
    "pigparlor.pwa",
    "pigparlor.ratings",
    "pigparlor.tournaments",
    "pigparlor.moderation",
]
# The games: every games/<slug>/ with an apps.py is a game app; its AppConfig.ready
# registers the engine with games.core.registry. A new game is a new folder.
INSTALLED_APPS += sorted(f"games.{path.parent.name}" for path in (BASE_DIR / "games").glob("*/apps.py"))

MIDDLEWARE = [
    # First: it compresses the HTML pages and API answers. Static files come precompressed
    # (serve collects them with gzip and brotli copies, pigparlor/static_files.py), and
    # WhiteNoise serves those. Django masks the CSRF token per response (BREACH).
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "pigparlor.headers.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    # Staff and moderators set up two-factor sign-in before the admin lets them in.
    "pigparlor.accounts.mfa.StaffNeedTwoFactor",
    # Last: turns a throttled login (either door) into the "too many failed log-ins" page.
    "axes.middleware.AxesMiddleware",
]

# No inline script, style attribute or eval anywhere (static/js/site.js does what inline
# handlers did); sockets are same-origin ('self' covers ws:/wss: to this host and port).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Only features Chromium knows: an unknown one ("bluetooth") is a console warning on every page.
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=()"
# Also Django's defaults, said out loud: nosniff, same-origin referrers and opener, no framing.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

ROOT_URLCONF = "pigparlor.urls"
ASGI_APPLICATION = "pigparlor.asgi.application"

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
                "pigparlor.accounts.context.guest",
                "pigparlor.moderation.context.moderator",
            ],
        },
    },
]

# SQLite connections are kept (PIGPARLOR_CONN_MAX_AGE seconds, health-checked before
# reuse): the sockets, the clock and the heartbeat share one ORM thread, whose
# connection lives on instead of being opened again for every call (issue 14).
# PostgreSQL uses a pool instead (below).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("PIGPARLOR_CONN_MAX_AGE", "600")), conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # PostgreSQL: a pool per process (psycopg_pool, Django's "pool" option) instead of
    # kept connections. Daphne runs each HTTP request on a thread of its own, and a
    # kept connection stayed open with its finished thread until the garbage collector
    # came by: opening 200 tables on two workers ran PostgreSQL out of its 100
    # connections ("too many clients", HTTP 500s in bench/tables.py). Pooled, every
    # request and ORM call hands its connection back when it is done.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": int(os.environ.get("PIGPARLOR_DB_POOL_SIZE", "16")), "timeout": 30}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;",
        "transaction_mode": "IMMEDIATE",
    }

REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis's publish/subscribe (pigparlor/layers.py says why, and how a socket
            # catches up after Redis restarts). Memberships live in the process, so a
            # killed process leaves none behind.
            "BACKEND": "pigparlor.layers.RedisPubSubChannelLayer",
            # socket_timeout: redis-py 8 defaults it to 5 s; longer than the layer's
            # 0.1 s reads, a Redis that stops answering is still noticed.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 1000, "socket_timeout": 30}],
                       # Processes that share a prefix hear each other; another prefix
                       # (another site, a parallel test run) on the same Redis does not.
                       "prefix": os.environ.get("REDIS_PREFIX", "asgi")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "pigparlor.layers.InMemoryChannelLayer"}}

AUTHENTICATION_BACKENDS = [
    # First: refuses every login attempt that is throttled (pigparlor/accounts/throttle.py).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
# A guest may open the log-in and sign-up pages (sign-up keeps their games); a signed-in
# player is sent on from them by pigparlor.accounts.views.entrance instead of by allauth.
ACCOUNT_AUTHENTICATED_LOGIN_REDIRECTS = False
# New usernames get the display names' checks: NFKC, no invisible characters, no homoglyphs of
# another player's name, no reserved or bot names (pigparlor/accounts/names.py).
ACCOUNT_ADAPTER = "pigparlor.accounts.adapter.AccountAdapter"
# Failed logins are throttled by axes below; allauth's own limit counted failures
# per username from anywhere, so anyone could lock a known player out.
ACCOUNT_RATE_LIMITS = {"login_failed": False}
# allauth counts its other limits (sign-ups: 20 a minute from one address; password
# changes, resets…) in Django's cache: the database's, so every process counts together
# (the table is made by migration accounts/0004; docs/operations.md "Limits").
CACHES = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "pigparlor_cache"}}
# Two-factor sign-in (allauth.mfa): an authenticator app (TOTP) and recovery codes, set up from
# the profile; required of staff and moderators (pigparlor/accounts/mfa.py). A wrong code counts
# as a failed log-in for axes below, like a wrong password (allauth's own limit on codes rides on
# its "login_failed" limit, which is off above).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "Pig Parlor"
# A code from the step before or after the current one (30 s each) is taken too: phone clocks drift.
MFA_TOTP_TOLERANCE = 1
MFA_ADAPTER = "pigparlor.accounts.mfa.MFAAdapter"
MFA_FORMS = {"authenticate": "pigparlor.accounts.mfa.AuthenticateForm",
             "reauthenticate": "pigparlor.accounts.mfa.ReauthenticateForm"}
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# Login throttling (pigparlor/accounts/throttle.py): 5 failures for one name from
# one address, or 20 from one address for any names, lock that for 15 minutes.
AXES_HANDLER = "pigparlor.accounts.throttle.LoginThrottle"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = 5
PIGPARLOR_LOGIN_FAILURES_PER_ADDRESS = 20
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "pigparlor.accounts.throttle.locked_out"
# Never kept in the attempt log: the names (axes' default) and a second factor's code.
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "code"]

# Every form that sets a password checks these: allauth's sign-up and password
# change, the admin's, and createsuperuser.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "pigparlor.accounts.passwords.NotOnlyWhitespaceValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# ``serve`` (and the test session) collect the static files here, each under a name
# with a hash of its contents and pre-compressed with gzip and brotli; WhiteNoise
# serves them with far-future, immutable cache headers, so a repeat visit asks for
# nothing. Collecting is skipped when nothing changed and is serialised by a lock,
# so servers started side by side share one copy (pigparlor/static_files.py).
# With DJANGO_DEBUG=1 the files are served from where they are, re-read on change.
STATIC_ROOT = Path(os.environ.get("PIGPARLOR_STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # whitenoise's CompressedManifestStaticFilesStorage, its URLs remembered.
    "staticfiles": {"BACKEND": "pigparlor.static_files.StaticStorage"},
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Bot think time before a bot's move, in ms (0 in tests).
PIGPARLOR_BOT_DELAY_MS = int(os.environ.get("PIGPARLOR_BOT_DELAY_MS", "700"))
# The table page keeps each change made by someone else on screen at least this long
# before showing the next (turn-based games; static/js/table.js). 0 in tests.
PIGPARLOR_MIN_SHOW_MS = int(os.environ.get("PIGPARLOR_MIN_SHOW_MS", "600"))
# Socket, clock and heartbeat calls slower than this (ms, 0 = never) are logged on
# "pigparlor.slow" with where the time went (issue 14: find the tail).
PIGPARLOR_SLOW_MS = int(os.environ.get("PIGPARLOR_SLOW_MS", "50"))
# The garbage collector's thresholds in each serve process ("gen0,gen1,gen2"; CPython's
# own are 700,10,10): young objects are collected less often so that full collections,
# the tail of a busy process, are rare (issue 14, docs/benchmarks.md).
_gc_thresholds = os.environ.get("PIGPARLOR_GC_THRESHOLDS", "50000,20,100")
try:
    PIGPARLOR_GC_THRESHOLDS = tuple(int(part) for part in _gc_thresholds.split(","))
    if len(PIGPARLOR_GC_THRESHOLDS) != 3 or min(PIGPARLOR_GC_THRESHOLDS) < 1:
        raise ValueError
except ValueError:
    raise ImproperlyConfigured(
        f"PIGPARLOR_GC_THRESHOLDS must be three positive whole numbers like 50000,20,100, not {_gc_thresholds!r}") from None
# serve --workers: a worker that dies soon after its start is started again after this many
# ms, doubled for each such failure in a row (capped at 30 s; serve.py).
PIGPARLOR_WORKER_BACKOFF_MS = int(os.environ.get("PIGPARLOR_WORKER_BACKOFF_MS", "1000"))
# A game's lobby listing is rendered at most once per this many ms while tables change
# under a socket, the clock or a tournament (seating a round of 128 tables renders it
# once, not 128 times on the thread every table's move waits for).
PIGPARLOR_LOBBY_REFRESH_MS = int(os.environ.get("PIGPARLOR_LOBBY_REFRESH_MS", "250"))
# "Play again": how long a rematch waits for the other players to answer (they hear of it in the
# notifications menu and by push) before bots take the seats nobody took.
PIGPARLOR_REMATCH_WAIT_MS = int(os.environ.get("PIGPARLOR_REMATCH_WAIT_MS", "120000"))

# A human whose last socket closed gets this long to come back before a bot plays the seat.
PIGPARLOR_SEAT_GRACE_MS = int(os.environ.get("PIGPARLOR_SEAT_GRACE_MS", "60000"))
# Per-socket limits on table sockets: largest message, burst and steady rate (messages/s).
PIGPARLOR_WS_MAX_BYTES = 4096
PIGPARLOR_WS_BURST = int(os.environ.get("PIGPARLOR_WS_BURST", "20"))
PIGPARLOR_WS_RATE = float(os.environ.get("PIGPARLOR_WS_RATE", "10"))
# Socket caps (docs/operations.md "Socket caps"), each for one kind of socket (table sockets
# over every table and both transports; lobby; tournament; player): the sockets one account
# may hold open at once, and one address without an account.
PIGPARLOR_MAX_SOCKETS_PER_USER = int(os.environ.get("PIGPARLOR_MAX_SOCKETS_PER_USER", "20"))
PIGPARLOR_MAX_SOCKETS_PER_ADDRESS = int(os.environ.get("PIGPARLOR_MAX_SOCKETS_PER_ADDRESS", "20"))
# Table sockets one table takes from people without a seat there (its players always get in).
PIGPARLOR_MAX_WATCHERS_PER_TABLE = int(os.environ.get("PIGPARLOR_MAX_WATCHERS_PER_TABLE", "200"))
# Presence: each serve process beats this often; a process whose beat is older than
# the expiry is dead, and the sockets it held are forgotten (presence.sweep).
PIGPARLOR_PRESENCE_BEAT_MS = int(os.environ.get("PIGPARLOR_PRESENCE_BEAT_MS", "5000"))
PIGPARLOR_PRESENCE_EXPIRY_MS = int(os.environ.get("PIGPARLOR_PRESENCE_EXPIRY_MS", "20000"))
# Tournaments: players check in during the last this-many minutes before the start.
PIGPARLOR_TOURNAMENT_CHECKIN_MINUTES = int(os.environ.get("PIGPARLOR_TOURNAMENT_CHECKIN_MINUTES", "10"))
# A player (not staff) may host this many tournaments in any 24 hours, starting within this many days.
PIGPARLOR_TOURNAMENTS_PER_DAY = int(os.environ.get("PIGPARLOR_TOURNAMENTS_PER_DAY", "3"))
PIGPARLOR_TOURNAMENT_HOSTED_AHEAD_DAYS = int(os.environ.get("PIGPARLOR_TOURNAMENT_HOSTED_AHEAD_DAYS", "30"))
# A running tournament's page re-renders its board this often (its tables' "round 3 of 5").
PIGPARLOR_TOURNAMENT_PROGRESS_SECONDS = float(os.environ.get("PIGPARLOR_TOURNAMENT_PROGRESS_SECONDS", "5"))
# Per-user limits on creating tables (docs/api.md "Limits"): tables one user may host that
# are not over yet (open or running), and tables one user may create in any minute.
PIGPARLOR_MAX_UNFINISHED_TABLES = int(os.environ.get("PIGPARLOR_MAX_UNFINISHED_TABLES", "5"))
PIGPARLOR_TABLES_PER_MINUTE = int(os.environ.get("PIGPARLOR_TABLES_PER_MINUTE", "10"))
# Seats one user may hold at tables that have not started (joined or hosted).
PIGPARLOR_MAX_OPEN_SEATS = int(os.environ.get("PIGPARLOR_MAX_OPEN_SEATS", "10"))

# Quick play: how long a player waits for people before bots fill the table, unless they
# choose otherwise on the "Play now" form (seconds).
PIGPARLOR_QUICK_PLAY_WAIT_S = int(os.environ.get("PIGPARLOR_QUICK_PLAY_WAIT_S", "10"))
# Guests (pigparlor/accounts/guests.py, docs/operations.md "Guests"): guests one address (an
# IPv6 /64) may make in any hour; tables not over yet one guest may sit at; days after its
# last table a guest is deleted.
PIGPARLOR_GUESTS_PER_ADDRESS = int(os.environ.get("PIGPARLOR_GUESTS_PER_ADDRESS", "20"))
PIGPARLOR_GUEST_MAX_TABLES = int(os.environ.get("PIGPARLOR_GUEST_MAX_TABLES", "2"))
PIGPARLOR_GUEST_EXPIRY_DAYS = int(os.environ.get("PIGPARLOR_GUEST_EXPIRY_DAYS", "14"))

# Watching it run (docs/operations.md): who may read /metrics besides signed-in staff: addresses
# and networks ("10.0.0.0/8"), comma-separated. Everyone else gets a 404. /healthz is public.
PIGPARLOR_METRICS_ALLOWED = env_list("PIGPARLOR_METRICS_ALLOWED", "127.0.0.1,::1")
# A probe or a scraper inside the network may ask over plain http even when the site redirects to https.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]

# Web Push (pigparlor/pwa, docs/operations.md "Push notifications"). The VAPID key signs every
# push: from the environment, else made on first use and kept in the data directory.
PIGPARLOR_VAPID_PRIVATE_KEY = os.environ.get("PIGPARLOR_VAPID_PRIVATE_KEY", "")
# Who runs this site, for push services that need to reach the sender (VAPID "sub").
PIGPARLOR_PUSH_CONTACT = os.environ.get("PIGPARLOR_PUSH_CONTACT", "mailto:push@pigparlor.invalid")
# Devices one player may have notifications on for.
PIGPARLOR_PUSH_MAX_SUBSCRIPTIONS = int(os.environ.get("PIGPARLOR_PUSH_MAX_SUBSCRIPTIONS", "10"))
# "Your turn" waits this long after the move, then goes out only if the player still has
# no socket at the table (a page loading or reconnecting is not someone gone away).
PIGPARLOR_PUSH_TURN_DELAY_MS = int(os.environ.get("PIGPARLOR_PUSH_TURN_DELAY_MS", "5000"))
# Seconds one push may take before it is given up (and logged).
PIGPARLOR_PUSH_TIMEOUT_S = 10
# Tests only: plain-http push endpoints on this machine (exact origins such as
# http://127.0.0.1:8765) a subscription may name besides https ones. Empty in production;
# only 127.0.0.1 origins are ever honoured (pigparlor/pwa/subscriptions.py).
PIGPARLOR_PUSH_TEST_ORIGINS = env_list("PIGPARLOR_PUSH_TEST_ORIGINS")

# Chat (pigparlor/moderation): each user may post this many lines in any window of this many seconds.
PIGPARLOR_CHAT_BURST = int(os.environ.get("PIGPARLOR_CHAT_BURST", "5"))
PIGPARLOR_CHAT_WINDOW_S = int(os.environ.get("PIGPARLOR_CHAT_WINDOW_S", "10"))

# Errors go to stderr with their traceback: with DEBUG off a 500 is otherwise
# logged nowhere (Django's default console handler only runs with DEBUG on).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {"django": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
                # Slow socket, clock and heartbeat calls (PIGPARLOR_SLOW_MS), with where their time went.
                "pigparlor.slow": {"handlers": ["stderr"], "level": "INFO", "propagate": False}},
}
