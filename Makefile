# Pig Parlor. `make run` serves the site; `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run lint test test-quick test-busy test-repeat venv chromium axe bench audit clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $@

# Debian's Chromium for the browser tests (never a browser download).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi; }

# axe-core for the accessibility browser test, pinned by its lock file and installed beside the
# test (never served): once, from npm's cache when it has it.
AXE := tests/e2e/axe/node_modules/axe-core/axe.min.js
axe: $(AXE)

$(AXE): tests/e2e/axe/package-lock.json
	cd tests/e2e/axe && npm ci --prefer-offline --no-audit --no-fund >/dev/null
	touch $@

run: venv
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# Three workers on CI's two cores: a fifth of the suite's time is real-time games and
# servers waiting (Oink! reveals, restarts), which a third worker overlaps (18 min -> 15).
# Lint and types first (seconds): ruff, then mypy on what pyproject.toml names.
lint: venv
	$(PY) -m ruff check .
	$(PY) -m mypy

# Every run ends with its 25 slowest tests, so the cost stays in view.
SUITE := $(PY) -m pytest -n 3 --dist loadgroup -q --durations=25

test: venv chromium axe lint
	$(SUITE) $(PYTEST_ARGS)

# The inner loop (goal: 3 minutes): lint, types, and every test that needs no browser, no server
# process and no PostgreSQL or Redis (tests/conftest.py marks the ones that start a server).
test-quick: venv lint
	$(SUITE) -m "not browser and not server and not scaleout" $(PYTEST_ARGS)

# The whole suite beside a neighbour that burns one core, as CI's machine may be loaded: it must
# pass too. The neighbour is started here and stopped by its pid, whatever the suite's result.
test-busy: venv chromium axe lint
	@$(PY) -c "while True: pass" & busy=$$!; \
	  trap 'kill $$busy 2>/dev/null' EXIT INT TERM; \
	  echo "a neighbour burns one core (pid $$busy)"; \
	  $(SUITE) $(PYTEST_ARGS)

# The flake gate: the whole suite N times back to back, then every test that failed in any run.
N ?= 3
test-repeat: venv chromium axe lint
	$(PY) tests/repeat.py $(N) $(PYTEST_ARGS)

bench: venv
	$(PY) bench/engine.py

# Lighthouse 12.2.3 (pinned exactly; 13 needs Node 22) with Debian's Chromium on the home page,
# a game's lobby and a live table, mobile settings: prints the scores (docs/benchmarks.md).
AUDIT_PORT ?= 8117
audit: venv chromium
	cd bench/lighthouse && npm i -E --no-audit --no-fund lighthouse@12.2.3 >/dev/null
	$(PY) bench/audit.py --port $(AUDIT_PORT)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
