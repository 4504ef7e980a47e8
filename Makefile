# Quick start: `make run` (the app with demo data) and `make test` (the whole suite).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-requirements
PYTEST_ARGS ?=
# `make run PORT=8123` serves on another port; everything generated (the database, the broker's
# queue, logs, collected static files, audit anchors) goes under VAR_DIR (default ./var).
PORT    ?= 8000
VAR_DIR ?= $(CURDIR)/var
export VAR_DIR PORT

.PHONY: run test setup chromium migrate demo lint bench clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)

# Debian's Chromium for the Playwright journeys (never `playwright install`: it downloads).
chromium:
	@if [ -x /usr/bin/chromium ]; then \
		true; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's chromium for the browser tests..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
		echo "Chromium is not installed and this is not root: browser tests will be reported as skipped."; \
	fi

migrate: setup
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py load_demo

# The app on http://127.0.0.1:$(PORT) (default 8000) with a Celery worker and beat on the embedded
# filesystem broker; Ctrl-C stops both.
run: demo
	@mkdir -p "$(VAR_DIR)"
	@$(BIN)/celery -A config worker --beat --loglevel=WARNING --concurrency=1 \
		--schedule="$(VAR_DIR)/celerybeat-schedule" > "$(VAR_DIR)/celery.log" 2>&1 & echo $$! > "$(VAR_DIR)/celery.pid"; \
	trap 'kill $$(cat "$(VAR_DIR)/celery.pid") 2>/dev/null' EXIT INT TERM; \
	echo "Celery worker and beat running (log: $(VAR_DIR)/celery.log). Open http://127.0.0.1:$(PORT)/ and sign in with a demo login listed above (password demo-cardroom-2026)."; \
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The suite's processes (2 by default: PYTEST_WORKERS=3 to try more) keep the project's bytecode
# (__pycache__, ignored by git) even where the environment turns writing it off: each of them,
# and the servers and workers the tests start, then reads the test modules and the project
# already compiled (the collection alone: 12 s of CPU a process, 5 s with it kept).
PYTEST_WORKERS ?= 2
test: setup chromium
	$(BIN)/python manage.py makemigrations --check --dry-run > /dev/null
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/vulture

clean:
	rm -rf "$(VAR_DIR)/celery" "$(VAR_DIR)"/test-db.sqlite3* "$(VAR_DIR)"/test-template-* "$(VAR_DIR)"/celerybeat-schedule*
