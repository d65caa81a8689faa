"""Pig Parlor settings.

The embedded default needs no services: SQLite in WAL mode, the in-memory
channel layer, and the clock and bots inside the server process. Scaled out,
``DATABASE_URL`` picks PostgreSQL and ``REDIS_URL`` the Redis channel layer.
"""
import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me-in-production")
DEBUG = os.environ.get("DJANGO_DEBUG", "1") == "1"
ALLOWED_HOSTS = os.environ.get("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "pigparlor.tables",
    "pigparlor.api",
    "pigparlor.lobby",
    "pigparlor.accounts",
    "pigparlor.pwa",
    "pigparlor.ratings",
]
# The games: every games/<slug>/ with an apps.py is a game app; its AppConfig.ready
# registers the engine with pigparlor.tables.registry. A new game is a new folder.
INSTALLED_APPS += sorted(f"games.{path.parent.name}" for path in (BASE_DIR / "games").glob("*/apps.py"))

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

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
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;",
        "transaction_mode": "IMMEDIATE",
    }

REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # socket_timeout: redis-py 8 defaults it to 5 s, the same as channels_redis'
            # blocking pop (BZPOPMIN, 5 s), so an idle socket's receive timed out and
            # its consumer crashed (django/channels_redis#422). Longer than the pop, a
            # Redis that stops answering is still noticed.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 1000, "socket_timeout": 30}],
                       "capacity": 1000,
                       # Processes that share a prefix hear each other; another prefix
                       # (another site, a parallel test run) on the same Redis does not.
                       "prefix": os.environ.get("REDIS_PREFIX", "asgi")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "none"
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Bot think time before a bot's move, in ms (0 in tests).
PIGPARLOR_BOT_DELAY_MS = int(os.environ.get("PIGPARLOR_BOT_DELAY_MS", "700"))

# A human whose last socket closed gets this long to come back before a bot plays the seat.
PIGPARLOR_SEAT_GRACE_MS = int(os.environ.get("PIGPARLOR_SEAT_GRACE_MS", "60000"))
# Per-socket limits on table sockets: largest message, burst and steady rate (messages/s).
PIGPARLOR_WS_MAX_BYTES = 4096
PIGPARLOR_WS_BURST = int(os.environ.get("PIGPARLOR_WS_BURST", "20"))
PIGPARLOR_WS_RATE = float(os.environ.get("PIGPARLOR_WS_RATE", "10"))
# Table sockets one user may hold open at once, over every table and both transports.
PIGPARLOR_MAX_SOCKETS_PER_USER = int(os.environ.get("PIGPARLOR_MAX_SOCKETS_PER_USER", "20"))
# Presence: each serve process beats this often; a process whose beat is older than
# the expiry is dead, and the sockets it held are forgotten (presence.sweep).
PIGPARLOR_PRESENCE_BEAT_MS = int(os.environ.get("PIGPARLOR_PRESENCE_BEAT_MS", "5000"))
PIGPARLOR_PRESENCE_EXPIRY_MS = int(os.environ.get("PIGPARLOR_PRESENCE_EXPIRY_MS", "20000"))
