# Every target only calls the `trigsight` command (or pytest) from the project's virtualenv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run release serve test eval install browser clean

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

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# Chromium for the browser gate: TRIGSIGHT_CHROMIUM, Debian's chromium (installed with
# apt-get when run as root), or Playwright's own download on a developer laptop.
browser: install
	$(BIN)/trigsight browser --install

clean:
	rm -rf release releases .cache build *.egg-info
