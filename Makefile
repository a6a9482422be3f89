# Every target only calls the `trigsight` command (or pytest) from the project's virtualenv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run release serve test eval install browser lock clean

run: release
	$(BIN)/trigsight serve

release: install browser
	$(BIN)/trigsight release

serve: install
	$(BIN)/trigsight serve

eval: release
	$(BIN)/trigsight eval

test: install browser
	$(BIN)/python -m pytest

install: $(STAMP)

# constraints.txt holds the versions the suite last passed with: a fresh clone installs those, not
# whatever its dependencies released since (httpx2 2.17 once broke the model client overnight).
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --constraint constraints.txt -e '.[test]'
	touch $@

# Resolve the dependencies afresh in a scratch venv and write their versions to constraints.txt;
# run `make test` after it before committing the new file.
lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet -e '.[test]'
	{ echo "# The versions \`make test\` last passed with (\`make lock\` writes this file; see the Makefile)."; \
	  .lock-venv/bin/python -m pip freeze --exclude-editable; } > constraints.txt
	rm -rf .lock-venv

# Chromium for the browser gate: TRIGSIGHT_CHROMIUM, Debian's chromium (installed with
# apt-get when run as root), or Playwright's own download on a developer laptop.
browser: install
	$(BIN)/trigsight browser --install

clean:
	rm -rf release releases .cache build *.egg-info .lock-venv
