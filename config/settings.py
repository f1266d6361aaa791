"""Settings, read from the environment with safe local defaults.

Every variable is listed in the configuration table of docs/OPERATING.md.
Without any of them the site runs on a laptop: SQLite under var/, in-memory
channel layer and cache, DEBUG on only when asked for.
"""

import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

from tournament.core.serving import serving_layers_off

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [
        item.strip()
        for item in os.environ.get(name, default).split(",")
        if item.strip()
    ]


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off the site refuses to start "
            "without a real secret key: set SECRET_KEY (e.g. "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`) "
            "or run with DEBUG=1 for local development."
        )
    SECRET_KEY = "insecure-local-development-key-only-for-debug-mode"

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "localhost,127.0.0.1"
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_tables2",
    "axes",
    "csp",
    "tournament",
]

MIDDLEWARE = [
    "tournament.core.middleware.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "tournament.core.static.StaticFiles",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "tournament.core.middleware.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournament.core.middleware.PrivatePagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns lockouts into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tournament.core.context_processors.roles",
            ],
        },
    },
]

# Every form's fields name their own mistakes (aria-describedby, aria-invalid).
FORM_RENDERER = "tournament.core.forms.FormRenderer"

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# --- Database -------------------------------------------------------------
# Every SQLite database, the embedded default under var/ or a file named by
# DATABASE_URL, gets the same options: WAL, so readers (standings pages)
# never block the writer (result entry); a busy timeout, so a writer waits
# for another instead of failing; IMMEDIATE transactions, so a transaction
# takes the write lock when it begins -- two that start as readers and then
# both write deadlock, which SQLite answers at once with "database is
# locked" (as when bots answer a player's move at the same moment).
SQLITE_OPTIONS: dict[str, Any] = {
    "init_command": (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;"
    ),
    "transaction_mode": "IMMEDIATE",
}
# Under ASGI every request runs in a thread of its own, so Django's
# persistent connections (CONN_MAX_AGE) pile up, one per thread, and every
# request in flight opens one more, until a busy hall holds every connection
# PostgreSQL allows (bench/load.py). A pool per worker process keeps at most
# 10 (four workers: 40); a request waits for a free one. Django's
# documentation: no persistent connections under ASGI, a pool instead.
POSTGRESQL_POOL = {"min_size": 1, "max_size": 10, "timeout": 30}
# SQLite has no pool of Django's: tournament/core/sqlite keeps a few
# connections between requests (opening one parses the whole schema).
SQLITE_ENGINE = "tournament.core.sqlite"


def database_settings(url: str, var_dir: Path) -> dict[str, Any]:
    """The default database: `url` (DATABASE_URL) if given, else one SQLite
    file under `var_dir`. SQLite gets SQLITE_OPTIONS (options given in the
    URL, e.g. ``?timeout=20``, are kept) and an in-memory test database;
    PostgreSQL gets its pool."""
    if url:
        database: dict[str, Any] = dict(dj_database_url.parse(url))
    else:
        var_dir.mkdir(parents=True, exist_ok=True)
        database = {
            "ENGINE": SQLITE_ENGINE,
            "NAME": str(var_dir / "siebenschraem.sqlite3"),
        }
    if database["ENGINE"] in ("django.db.backends.sqlite3", SQLITE_ENGINE):
        database["ENGINE"] = SQLITE_ENGINE
        database["OPTIONS"] = {**SQLITE_OPTIONS, **database.get("OPTIONS", {})}
        # In memory, named so: pytest-django knows Django's engine's
        # in-memory default, not this engine's, and would name a file.
        database.setdefault("TEST", {"NAME": ":memory:"})
    elif database["ENGINE"] == "django.db.backends.postgresql":
        database.setdefault("OPTIONS", {})["pool"] = dict(POSTGRESQL_POOL)
        # The pool checks a connection before a request gets it, so the
        # first requests after PostgreSQL restarted get new connections,
        # not dead ones.
        database["CONN_HEALTH_CHECKS"] = True
    return database


DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASES = {"default": database_settings(DATABASE_URL, VAR_DIR)}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and cache ---------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    # A Redis that is down is an empty cache (tournament.core.cache), and
    # one that does not answer is given up on within half a second.
    CACHES: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": "tournament.core.cache.HallRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Kept pages and fragments, one set per state, language and search: more
    # than Django's default 300 entries on a busy day; when full, the least
    # recently used quarter goes.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 5000, "CULL_FREQUENCY": 4},
        }
    }

# --- Digital tables -------------------------------------------------------
# Seconds a bot waits before each move, so people can follow; a table of
# bots only (nobody to follow but spectators) plays faster.
DIGITAL_BOT_DELAY = float(os.environ.get("DIGITAL_BOT_DELAY", "0.9"))
DIGITAL_BOT_DELAY_ALONE = float(os.environ.get("DIGITAL_BOT_DELAY_ALONE", "0.1"))
# Tests: bots move at once, in the thread that committed the change.
DIGITAL_BOTS_INLINE = False
# Bot runner threads of one worker process at once (each holds a database
# connection while it plays; PostgreSQL's pool has 10 per worker); more
# tables wait their turn and take turns move by move.
DIGITAL_BOT_RUNNERS = 6
# A tournament table's seat whose phone has been gone this many seconds (no
# socket, no poll) when it is due to act is played by a bot until its link
# is opened again.
DIGITAL_AWAY_SECONDS = float(os.environ.get("DIGITAL_AWAY_SECONDS", "60"))
# Practice tables (/ueben/) are open to anyone without signing in, and each
# is four seats and bots to run. So each visitor (session) and each address
# may open only so many within DIGITAL_PRACTICE_WINDOW seconds (a hall's
# phones may share one address behind the club's router: it gets more), at
# most DIGITAL_PRACTICE_MAX_PLAYING are played at once, and a practice table
# without a move for DIGITAL_PRACTICE_IDLE_MINUTES is stopped when a new
# one is opened.
DIGITAL_PRACTICE_PER_SESSION = 10
DIGITAL_PRACTICE_PER_ADDRESS = 40
DIGITAL_PRACTICE_WINDOW = 600
DIGITAL_PRACTICE_MAX_PLAYING = 40
DIGITAL_PRACTICE_IDLE_MINUTES = 30

# --- Behind a proxy ---------------------------------------------------------
# The addresses of the proxies whose X-Forwarded-For and X-Forwarded-Proto
# the server believes (comma-separated; uvicorn's own setting): a request
# from anywhere else keeps its own address, so a phone cannot claim others
# to get past the guards below. The hall's laptop has no proxy; nginx on
# the same machine is 127.0.0.1 (deploy/nginx-site.conf).
FORWARDED_ALLOW_IPS = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# --- Personal links (tournament/core/ratelimit.py) -------------------------
# A player's personal link (/t/<slug>/mein/<token>/) needs no sign-in, so
# each address may ask for such pages PLAYER_LINK_REQUESTS times per
# PLAYER_LINK_WINDOW seconds (a hall's phones may share one address behind
# the club's router: it gets many), and may name PLAYER_LINK_MISSES links
# that do not exist within PLAYER_LINK_MISS_WINDOW seconds; after each one
# beyond them it waits MISS_WINDOW / MISSES seconds (20 s) for its next
# look-up, but a link its phone opened before is always answered.
# A benchmark that plays a whole hall from one address raises them.
PLAYER_LINK_REQUESTS = int(os.environ.get("PLAYER_LINK_REQUESTS", "600"))
PLAYER_LINK_WINDOW = 60
PLAYER_LINK_MISSES = int(os.environ.get("PLAYER_LINK_MISSES", "30"))
PLAYER_LINK_MISS_WINDOW = 600
# How long a phone remembers the player whose link it opened (the table
# page offers him his entry): a tournament day and the next.
PLAYER_LINK_COOKIE_DAYS = 2

# --- Phones on bad Wi-Fi (tournament/core/idempotency.py) ----------------
# A submission's key and first answer are kept this many days: a phone
# repeats a submission whose answer it lost within minutes or hours.
IDEMPOTENCY_KEY_DAYS = 3

# --- Photos of score sheets (tournament/sheetphoto/) -----------------------
# A photo a result was pre-filled from is kept this many days with its
# result version (under VAR_DIR/sheetphotos/), then its image is deleted:
# long enough for any dispute after the tournament; the organizer may
# delete a tournament's photos sooner. Photos never saved as a result go
# after a day. Its hash stays in the Protokoll either way.
SHEET_PHOTO_RETENTION_DAYS = int(os.environ.get("SHEET_PHOTO_RETENTION_DAYS", "90"))
# Photos read at once per process (one per core of the hall's laptop), and
# how many more may wait for a place; any further one is asked to wait a
# moment (tournament/sheetphoto/pool.py).
SHEET_PHOTO_WORKERS = int(os.environ.get("SHEET_PHOTO_WORKERS", "2"))
SHEET_PHOTO_WAITING = int(os.environ.get("SHEET_PHOTO_WAITING", "4"))
# The longest a request waits for its photo to be read.
SHEET_PHOTO_SECONDS = 20.0

# --- Auth ------------------------------------------------------------------
_VALIDATORS = "django.contrib.auth.password_validation."
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": _VALIDATORS + name}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
# scrypt first: as hard to guess at as Django's PBKDF2 (and memory-hard), at
# about half its CPU per sign-in, which the hall's laptop spends on the
# pages meanwhile (bench/day.py's "login"). PBKDF2 stays to check the
# passwords stored before; Django stores each anew with scrypt at its next
# sign-in.
_SCRYPT = "django.contrib.auth.hashers.ScryptPasswordHasher"
PASSWORD_HASHERS = [
    _SCRYPT,
    *(h for h in global_settings.PASSWORD_HASHERS if h != _SCRYPT),
]
AUTHENTICATION_BACKENDS = [
    # Login throttling: django-axes counts failures per user name and address.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = 0.25  # hours: a mistyped password costs 15 minutes
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_USERNAME_CALLABLE = "config.axes.login_username"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:home"
LOGOUT_REDIRECT_URL = "tournament:home"

# --- Language and time -----------------------------------------------------
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("Deutsch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

# --- Static files (vendored, served by WhiteNoise) -------------------------
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Photos of score sheets: VAR_DIR/sheetphotos/, or the folder
    # SHEET_PHOTO_DIR names (one every worker of every machine reaches);
    # any storage of django-storages (an S3-compatible bucket) in its place.
    "sheetphotos": {
        "BACKEND": "tournament.sheetphoto.storage.PhotoStorage",
        "OPTIONS": {"location": os.environ.get("SHEET_PHOTO_DIR", "")},
    },
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# The TrueType fonts are the PDFs' (WeasyPrint reads them from disk), never
# sent to a browser: compressing them (half of collectstatic's time, so of
# `make run`'s start) serves nobody.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "ttf")

# Uploads: the largest accepted player workbook. Larger bodies are refused
# before they reach memory.
IMPORT_MAX_BYTES = 5 * 1024 * 1024
# ... and unpacked: an .xlsx is a zip, and a small one may unpack to gigabytes.
# A Games sheet of 400 players × 25 games (10,000 rows) unpacks to about 3 MB.
IMPORT_MAX_UNPACKED_BYTES = 50 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
# No request body may be larger (tournament.core.limits): refused with 413
# before it is read. The largest photo of a score sheet the reader takes
# (tournament/sheetphoto/reader/read.py, MAX_BYTES: 25 MB, a camera's
# original sent without script) and its form, so such a photo reaches the
# photo page and its own message; a test holds the two in step. Over twice
# the largest import, so a workbook a little too large still reaches the
# import page too.
REQUEST_MAX_BYTES = 26 * 1024 * 1024
# Seconds a request's whole body may take to arrive (uvicorn has no limit):
# a slower one gets 408 and its connection closes. Bodies are read before a
# request takes a place in Django (tournament/core/limits.py), so a slow
# one holds no place there, only its connection; this frees that too. A
# photo scaled on the phone (a few hundred KB) needs little, a workbook
# (10 MB) 0.7 MB/s, a form a few bytes.
REQUEST_BODY_SECONDS = float(os.environ.get("REQUEST_BODY_SECONDS", "15"))
# The server's own bounds (tournament/core/front.py): a connection's request
# head (line and headers) must arrive within FRONT_HEAD_SECONDS of its start
# or of the previous answer (a phone sends its head at once; a lossy Wi-Fi
# resends within seconds), and a client that takes nothing of its answer
# for FRONT_WRITE_SECONDS is cut off. Either holds an open file meanwhile.
FRONT_HEAD_SECONDS = float(os.environ.get("FRONT_HEAD_SECONDS", "15"))
FRONT_WRITE_SECONDS = float(os.environ.get("FRONT_WRITE_SECONDS", "30"))
# How many requests of each lane are in Django at once per worker process
# (tournament/core/limits.py, Lanes): visitors not signed in (phones) and
# signed-in users (referees, organizer: their session is looked up in the
# session store, a made-up session cookie counts as a phone's); the rest
# wait their turn.
REQUEST_LANES = {
    "public": int(os.environ.get("LANES_PUBLIC", "3")),
    "signed_in": int(os.environ.get("LANES_SIGNED_IN", "4")),
}
# Layers of the serving machinery switched off, to measure what each one
# is worth (bench/layers.py): a comma list of layers
# (tournament/core/serving.py names them and what each does). Empty (the
# default) is the site as it serves in the hall; an unknown name stops the
# start.
SERVING_LAYERS_OFF = serving_layers_off(env_list("SERVING_LAYERS_OFF"))
# Request bodies in flight at once per worker process (from their first
# byte until their request ends), and their bytes (declared, or the largest
# allowed for one without a length): beyond either, 503 with the body
# unread. Signed-in users have their own room, so no flood of anonymous
# uploads refuses a referee's save. A phone's photo is a few hundred KB, a
# camera's original up to 25 MB, a form a few hundred bytes, an import 10 MB.
REQUEST_BODIES = {
    "public": {"count": 64, "bytes": 96 * 1024 * 1024},
    "signed_in": {"count": 64, "bytes": 128 * 1024 * 1024},
}

# --- Production hardening (active with DEBUG off) -------------------------
# The hall's laptop may serve plain HTTP on the LAN; set SECURE_SSL_REDIRECT=0
# there. Behind a TLS proxy the defaults are the strict ones.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

# Content Security Policy: everything from this site, no inline script (all
# JavaScript lives in static files); websockets to this host for live pages.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'", "ws:", "wss:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

# Each line says when, how grave, which worker process and what; with
# LOG_FORMAT=json one JSON object per line (python-json-logger) for a log
# collector. LOG_REQUESTS=1 adds a line per request that reaches Django,
# with its status and duration (tournament.core.middleware).
_LOG_FIELDS = "%(asctime)s %(levelname)s [%(process)d] %(name)s: %(message)s"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": _LOG_FIELDS},
        "json": {"()": "pythonjsonlogger.json.JsonFormatter", "format": _LOG_FIELDS},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if os.environ.get("LOG_FORMAT") == "json" else "text",
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "siebenschraem.requests": {
            "level": "INFO" if env_bool("LOG_REQUESTS", False) else "WARNING"
        }
    },
}
