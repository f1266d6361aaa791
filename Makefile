# Siebenschräm: the two commands of the README, plus serve, lint and bench.
# Works on a fresh machine with only Python 3.11+ installed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run dev test test-fast serve serve-tls secret-key backup restore poster lint bench check-deploy messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamps: reinstall only when a requirements file changed.
$(VENV)/.run-stamp: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-stamp: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.run-stamp

# A key kept under var/ for the runs with DEBUG off (run, serve): made once,
# unless SECRET_KEY is given.
SERVE_ENV = SECRET_KEY="$${SECRET_KEY:-$$(cat var/secret_key)}" DEBUG=0
secret-key: | $(BIN)/python
	@mkdir -p var
	@test -n "$$SECRET_KEY" || test -s var/secret_key || $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key

## run: create .venv, install, migrate, load the demo championship, serve it
## as the hall does (manage.py serve: uvicorn with the hall's front door,
## DEBUG off, WhiteNoise) on HOST:PORT
# (127.0.0.1:8000). Errors are the site's own German pages, never Django's
# debug page. For developers: make dev. The steps before the server run in
# one start of the site (manage.py prepare; static files collected only when
# changed): a restart after a crash on the day serves again within seconds.
LOCAL_HOSTS := localhost,127.0.0.1,[::1]
run: $(VENV)/.run-stamp secret-key
	$(SERVE_ENV) $(BIN)/python manage.py prepare --static \
	  "migrate --noinput -v0" \
	  "housekeeping -v0" \
	  "demo --slug rm-2025 --date 2025-12-06 --complete 5" \
	  "demo --complete 3"
	@echo ""
	@echo "  Siebenschräm läuft auf http://$(HOST):$(PORT)/"
	@echo "  Demo-Logins: organizer / organizer-demo (Turnierleitung)"
	@echo "               referee / referee-demo, referee2 / referee2-demo (Schiedsrichter)"
	@echo "  Üben gegen Bots: http://$(HOST):$(PORT)/ueben/"
	@echo "  Beenden mit Strg+C."
	@echo ""
	$(SERVE_ENV) \
	ALLOWED_HOSTS="$${ALLOWED_HOSTS:-$(if $(filter 127.0.0.1 localhost ::1,$(HOST)),$(LOCAL_HOSTS),$$($(SERVE_ENV) $(BIN)/python manage.py hall hosts))}" \
	SECURE_SSL_REDIRECT=0 SECURE_COOKIES=0 SECURE_HSTS_SECONDS=0 \
	$(BIN)/python manage.py serve --check --host $(HOST) --port $(PORT)

## dev: the same demo on Django's development server, for developers:
## DEBUG on (the debug page on errors) and reloading on every code change
dev: $(VENV)/.run-stamp
	DEBUG=1 $(BIN)/python manage.py migrate --noinput -v0
	DEBUG=1 $(BIN)/python manage.py demo --slug rm-2025 --date 2025-12-06 --complete 5
	DEBUG=1 $(BIN)/python manage.py demo --complete 3
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

## test: create .venv, install dev requirements, the checks, the whole suite
# (each test file on one worker: --dist loadfile in pyproject.toml), the
# property tests with all their examples (the "thorough" profile,
# tests/conftest.py)
test: lint
	HYPOTHESIS_PROFILE=thorough $(BIN)/pytest -n $(WORKERS) $(PYTEST_ARGS)

## test-fast: the edit loop: the suite without the slow tests, the browser
## tests and the tests that start servers, the property tests with a tenth
## of their examples, and without the checks (make lint runs those)
test-fast: $(VENV)/.dev-stamp
	HYPOTHESIS_PROFILE=quick $(BIN)/pytest -n $(WORKERS) -m "not slow and not e2e and not server" $(PYTEST_ARGS)

# Two test workers per core: most of the suite's time is spent waiting on
# servers, browsers and sockets (a whole run used a third of two cores with
# one worker per core).
WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))

# The test runs keep compiled modules and pytest's rewritten test modules
# (__pycache__, ignored by git) from one run to the next, also where the
# environment says to write no bytecode: else every worker compiles the
# site and rewrites every test module again at each start.
test test-fast: export PYTHONDONTWRITEBYTECODE =

## lint: ruff, the architecture contracts (import-linter), mypy (strict;
## django-stubs for the app)
lint: $(VENV)/.dev-stamp
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy scoring tournament

## serve: production-like on the hall's LAN (ASGI, DEBUG off, WhiteNoise).
# The laptop keeps a generated secret key under var/. Allowed hosts are the
# laptop's own names and addresses (manage.py hall hosts), unless
# ALLOWED_HOSTS is given. Plain HTTP by default: TLS redirects and
# secure-only cookies are off unless asked for.
## serve-tls (or TLS=1 make serve): the same over HTTPS, with a self-signed
## certificate for the laptop's names and addresses, made once in var/tls/
# (manage.py hall certificate); cookies are then secure-only. Never HSTS:
# with it a phone could no longer go on past the unknown certificate.
WORKERS ?= $(if $(REDIS_URL),4,1)
TLS ?=
TLS_ON := $(filter 1 yes true on,$(TLS))
serve: $(VENV)/.run-stamp secret-key
	$(SERVE_ENV) $(BIN)/python manage.py prepare --static \
	  "migrate --noinput -v0" \
	  "housekeeping -v0"
	$(if $(TLS_ON),$(SERVE_ENV) $(BIN)/python manage.py hall certificate var/tls)
	@echo ""
	@echo "  Adresse für die Handys: $$($(SERVE_ENV) $(BIN)/python manage.py hall address --port $(PORT) $(if $(TLS_ON),--tls) 2>/dev/null || echo '(kein Netzwerk)')"
	@echo "  Aushang mit QR-Code: make poster$(if $(TLS_ON), TLS=1)   Sicherung nach jeder Serie: make backup"
	@echo ""
	$(SERVE_ENV) \
	ALLOWED_HOSTS="$${ALLOWED_HOSTS:-$$($(SERVE_ENV) $(BIN)/python manage.py hall hosts)}" \
	SECURE_SSL_REDIRECT="$${SECURE_SSL_REDIRECT:-0}" \
	SECURE_COOKIES="$${SECURE_COOKIES:-$(if $(TLS_ON),1,0)}" \
	SECURE_HSTS_SECONDS="$${SECURE_HSTS_SECONDS:-0}" \
	$(BIN)/python manage.py serve --check --host 0.0.0.0 --port $(PORT) --workers $(WORKERS) \
	  $(if $(TLS_ON),--ssl-keyfile var/tls/key.pem --ssl-certfile var/tls/cert.pem)

serve-tls:
	$(MAKE) serve TLS=1

## backup: every tournament to its own file in var/backups/ (BACKUP_DIR),
## named by slug and time; after every series, and copy it to a stick
BACKUP_DIR ?= var/backups
backup: $(VENV)/.run-stamp secret-key
	$(SERVE_ENV) $(BIN)/python manage.py backup --dir "$(BACKUP_DIR)"

## restore FILE=…json: a backup into this laptop's database (a new laptop
## too: it migrates first); REPLACE=1 replaces a tournament of that slug
restore: $(VENV)/.run-stamp secret-key
	@test -n "$(FILE)" || { echo "make restore FILE=var/backups/<slug>-<time>.json"; exit 2; }
	$(SERVE_ENV) $(BIN)/python manage.py migrate --noinput -v0
	$(SERVE_ENV) $(BIN)/python manage.py restore "$(FILE)" $(if $(filter 1 yes true on,$(REPLACE)),--replace)

## poster: var/aushang.pdf, the address phones open and its QR code, for the
## hall's wall (TLS=1 as for serve-tls; SLUG=… for a tournament's page)
poster: $(VENV)/.run-stamp secret-key
	$(SERVE_ENV) $(BIN)/python manage.py hall poster --port $(PORT) $(if $(TLS_ON),--tls) $(if $(SLUG),--slug $(SLUG)) -o var/aushang.pdf

## bench: every benchmark; each prints a JSON line last
bench: $(VENV)/.dev-stamp
	@for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

check-deploy: $(VENV)/.run-stamp
	DEBUG=0 SECRET_KEY=$$($(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))") \
	ALLOWED_HOSTS=schraem.example.org $(BIN)/python manage.py check --deploy --fail-level WARNING

## messages: refresh and compile the translation catalogs (needs gettext)
messages: $(VENV)/.dev-stamp
	DEBUG=1 $(BIN)/python manage.py makemessages -l en --ignore=.venv --ignore=static --ignore=var
	DEBUG=1 $(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .mypy_cache
