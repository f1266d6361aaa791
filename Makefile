# Siebenschräm: the two commands of the README, plus serve, lint and bench.
# Works on a fresh machine with only Python 3.11+ installed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test serve serve-tls lint bench check-deploy messages clean

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

## run: create .venv, install, migrate, load the demo championship, serve it
run: $(VENV)/.run-stamp
	DEBUG=1 $(BIN)/python manage.py migrate --noinput -v0
	DEBUG=1 $(BIN)/python manage.py demo --complete 3
	@echo ""
	@echo "  Siebenschräm läuft auf http://$(HOST):$(PORT)/"
	@echo "  Demo-Logins: organizer / organizer-demo (Turnierleitung)"
	@echo "               referee / referee-demo, referee2 / referee2-demo (Schiedsrichter)"
	@echo "  Üben gegen Bots: http://$(HOST):$(PORT)/ueben/"
	@echo ""
	DEBUG=1 $(BIN)/python manage.py runserver $(HOST):$(PORT)

## test: create .venv, install dev requirements, the checks, the whole suite
test: lint
	$(BIN)/pytest -n auto --dist loadfile $(PYTEST_ARGS)

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
SERVE_ENV = SECRET_KEY="$${SECRET_KEY:-$$(cat var/secret_key)}" DEBUG=0
serve: $(VENV)/.run-stamp
	@mkdir -p var
	@test -s var/secret_key || $(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key
	$(SERVE_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(SERVE_ENV) $(BIN)/python manage.py migrate --noinput -v0
	$(if $(TLS_ON),$(SERVE_ENV) $(BIN)/python manage.py hall certificate var/tls)
	$(SERVE_ENV) \
	ALLOWED_HOSTS="$${ALLOWED_HOSTS:-$$($(SERVE_ENV) $(BIN)/python manage.py hall hosts)}" \
	SECURE_SSL_REDIRECT="$${SECURE_SSL_REDIRECT:-0}" \
	SECURE_COOKIES="$${SECURE_COOKIES:-$(if $(TLS_ON),1,0)}" \
	SECURE_HSTS_SECONDS="$${SECURE_HSTS_SECONDS:-0}" \
	$(BIN)/uvicorn config.asgi:application --host 0.0.0.0 --port $(PORT) --workers $(WORKERS) \
	  --ws-per-message-deflate false \
	  $(if $(TLS_ON),--ssl-keyfile var/tls/key.pem --ssl-certfile var/tls/cert.pem)

serve-tls:
	$(MAKE) serve TLS=1

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
