# Needs only Python 3.11+ and make: everything else is installed into .venv from uv.lock.
PYTHON ?= python3
UV_VERSION := 0.13.9
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.install-stamp
DEV_STAMP := $(VENV)/.dev-install-stamp
PYTEST_ARGS ?=
# Set on the command line only (`make run HOST=0.0.0.0`: other devices on the network
# too, see README); some shells export a HOST of their own.
HOST := 127.0.0.1
PORT := 8000
ARGS :=

# uv installs into our .venv and never downloads a Python of its own.
export UV_PROJECT_ENVIRONMENT := $(CURDIR)/$(VENV)
export UV_PYTHON_DOWNLOADS := never

# Development defaults; set DEBUG=0 (with SECRET_KEY etc.) for production-like runs.
DEV_ENV := DEBUG=$${DEBUG:-1}
# mypy's Django plugin loads the settings, which never connect to this database.
TYPECHECK_ENV := DEBUG=1 DATABASE_URL=postgres://127.0.0.1/typecheck

.PHONY: install install-dev run worker beat manage admin messages test test-fast lint bench bench-cpu bench-api bench-sweep bench-clock bench-lobby bench-inbound bench-notices bench-slow-clients clean icons

# What running the service needs; `install-dev` adds the dev group (pytest, the linters,
# Playwright...) for the tests, the linters and the benchmarks. --inexact: neither sync
# removes what the other installed, so `make run` after `make test` keeps the dev group.
install: $(STAMP)

install-dev: $(DEV_STAMP)

$(STAMP): pyproject.toml uv.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(BIN)/uv sync --frozen --no-dev --inexact
	$(BIN)/python -m bansugoroku.lib.translations
	touch $@

# Older than $(STAMP) once the lock changed: synced again, with every group.
$(DEV_STAMP): $(STAMP)
	$(BIN)/uv sync --frozen --all-groups --inexact
	touch $@

# The whole service: the web server, a Celery worker and Celery beat; Ctrl-C stops them.
run: install
	$(DEV_ENV) $(BIN)/python -m bansugoroku.development.devserver $(HOST) $(PORT)

# The same processes one at a time, as the Procfile runs them, e.g. against a real
# broker (CELERY_BROKER_URL=redis://...): the worker plays the CPU's turns and hands
# events on; beat, of which exactly one runs, schedules the relay of undelivered
# events, the recovery of the CPU's lost turns and the hourly close of idle tables.
# Unless SITE_URL is set, their links name the server `make run` starts with the same
# HOST and PORT, as `make run` gives them (the worker has no request to follow).
CELERY_ENV = $(DEV_ENV) SITE_URL="$${SITE_URL:-$(shell $(BIN)/python -m bansugoroku.development.devserver --site-url $(HOST) $(PORT))}"

worker: install
	$(CELERY_ENV) $(BIN)/celery -A bansugoroku worker -l info

beat: install
	$(CELERY_ENV) $(BIN)/celery -A bansugoroku beat -l info -s .celery/beat-schedule

# Any management command, with the development settings: make manage ARGS="shell".
manage: install
	$(DEV_ENV) $(BIN)/python manage.py $(ARGS)

# An account for the admin (/admin/).
admin: install
	$(DEV_ENV) $(BIN)/python manage.py createsuperuser $(ARGS)

# Unless a broker is named, the tests' tasks go to kombu's in-memory transport, not to the
# .celery/ folder that `make worker` reads: no stale backlog for the next development run.
test: install-dev
	$(DEV_ENV) CELERY_BROKER_URL=$${CELERY_BROKER_URL:-memory://} $(BIN)/python -m pytest $(PYTEST_ARGS)

# All but the tests marked `slow` (processes, servers, browsers, races, whole games).
test-fast: install-dev
	$(DEV_ENV) CELERY_BROKER_URL=$${CELERY_BROKER_URL:-memory://} $(BIN)/python -m pytest \
		-m "not slow" $(PYTEST_ARGS)

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(TYPECHECK_ENV) $(BIN)/mypy
	$(BIN)/lint-imports

# Bring every language's .po up to date with the templates and code (GNU gettext's
# xgettext), then fill in the new msgstr and check with `make test`.
messages: install
	$(DEV_ENV) $(BIN)/python manage.py makemessages --no-obsolete --add-location file \
		-l de -l fr -l ru -l ja -i staticfiles -i engine -i tests -i bench -i harness

# The app icons (PNG) drawn again from their SVG, by Chromium: commit them after.
icons: install-dev
	$(BIN)/python -m harness.icons

bench: install-dev
	$(BIN)/python -m engine.tools.bench

# The CPU levels against each other and the baselines: a quick look, 100 games a pair.
CPU_GAMES := 100
bench-cpu: install-dev
	for pair in "normal random" "normal pipcount" "normal pipsafe" "normal easy" "easy random" \
		"hard normal" "hard pipsafe"; do \
		set -- $$pair; $(BIN)/python -m engine match --a $$1 --b $$2 --games $(CPU_GAMES) || exit; \
	done
	$(BIN)/python -m engine match --a normal --b normal --no-lookahead-for-b --games $(CPU_GAMES)
	$(BIN)/python -m engine match --a normal --b pipcount --games $(CPU_GAMES) --finish bear_off

# The move API on gunicorn with production settings; DATABASE_URL, else embedded PostgreSQL.
bench-api: install-dev
	$(BIN)/python -m bench.api_bench

# What a reply's HTML costs to read, built to cost the most, against the old parser.
bench-inbound: install-dev
	$(BIN)/python -m bench.inbound

# Notices through a real worker to a loopback Postmark; needs CELERY_BROKER_URL (Redis, RabbitMQ).
bench-notices: install-dev
	$(BIN)/python -m bench.notices

# Requests answered while 50 clients send their headers a line a second.
bench-slow-clients: install-dev
	$(BIN)/python -m bench.slow_clients

# Closing 100,000 and 1,000,000 idle tables, in a scratch database it makes and drops.
bench-sweep: install-dev
	$(BIN)/python -m bench.idle_sweep

# Ending 10,000 run-out clocks among 1,000,000 running, beside one UPDATE of the same rows.
bench-clock: install-dev
	$(BIN)/python -m bench.clock_sweep

# The lobby's pages and quick pairing among 10,000 open tables and 100,000 players.
bench-lobby: install-dev
	$(BIN)/python -m bench.lobby

clean:
	if [ -x $(BIN)/python ]; then $(BIN)/python -m bansugoroku.development.embedded_db stop; fi
	rm -rf $(VENV) .pgdata .celery .mail staticfiles .pytest_cache .mypy_cache .ruff_cache \
		.hypothesis .import_linter_cache .benchmarks bench-results .screenshots .vapid \
		celerybeat-schedule* .train locale/*/LC_MESSAGES/*.mo
	find . -path ./.git -prune -o \( -name __pycache__ -o -name '*.egg-info' \) -type d \
		-prune -exec rm -rf {} + -o \( -name '*.pyc' -o -name '*.prof' \) -type f -exec rm -f {} +
