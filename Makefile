# Jeton — every target bootstraps .venv from the pinned requirements.txt.
# Re-running is fast: the venv is rebuilt only when requirements.txt changes.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
PY     := $(VENV)/bin/python
MPY    := $(VENV)/bin/micropython
STAMP  := $(VENV)/.installed
# The firmware's fixed heap on the emulated board: empty for a board's (sim/harness.py BOARD_HEAP, 128K).
HEAP   ?=
export MICROPYPATH := .frozen:$(CURDIR)
export PYTHONPATH  := $(CURDIR)
# Debian packages a target needs are installed with apt-get when missing: as root, or through sudo
SUDO   := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: venv run console demo test lint bench clean distclean

# Each room adds its own targets in mk/<room>.mk (rngtest, par, powercut, ...).
-include mk/*.mk

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $@

# The configuration, without editing firmware/config.py: GAMES=aurore-88,trefle-90 (the offered games;
# default config.GAMES), PROFILE=pyboard|rp2|esp32 (boot as that board's wires; default emulated).
GAMES   ?=
PROFILE ?= emulated
# JURIS=vlt: boot under the video-lottery profile (firmware/jurisdiction.py; default config.JURISDICTION)
JURIS   ?=
CONFIG_ARGS = $(if $(GAMES),--games $(GAMES)) --profile $(PROFILE) $(if $(JURIS),--jurisdiction $(JURIS))
# SAS=no: `make run` without its SAS line (a vlt with no central system to poll it: no link tilt; docs/sas.md)
SAS     ?=

## run: boot the firmware (micropython) on the emulated board with the terminal cabinet panel
run: $(STAMP) unix32-tools
	$(PY) -m sim.cabinet $(if $(HEAP),--heap $(HEAP)) $(CONFIG_ARGS) $(if $(filter no,$(SAS)),--no-sas)

## console: technician console client (URL=socket://127.0.0.1:7770 or /dev/ttyUSB0; USER_ID=id logs in)
URL ?= socket://127.0.0.1:7770
console: $(STAMP)
	$(PY) -m tools.console $(URL) $(if $(USER_ID),--user $(USER_ID))

## demo: scripted session (10 tokens, 5 games, cash-out); last line is the meters as JSON
demo: $(STAMP) unix32-tools
	$(PY) -m sim.demo $(if $(HEAP),--heap $(HEAP)) $(CONFIG_ARGS)

## bench: every benchmark module in tools/bench/ (ratios against references measured in the same run)
bench: $(STAMP) unix32-tools
	$(PY) -m tools.bench

## test: pytest under CPython plus every device test under the MicroPython unix port (and the
## firmware image, which the emulated cabinet runs, the Cortex-M3 image for the rng/games tests, Chromium for the PAR sheet render test, PostgreSQL and nats-server for the central system: built or installed first)
## The linter runs first (make lint). TEST_JOBS=1 runs them in one process (default: one worker more
## than the cores, since the tests wait on firmware processes half the time: 2 workers kept this 2-core
## machine 48 % busy; each test file stays on one worker so that a module's booted cabinet is shared)
TEST_JOBS ?= $(shell python3 -c "import os; print((os.cpu_count() or 1) + 1)")
test: $(STAMP) lint saspy firmware firmware-arm browser-tools postgres-tools broker-tools
	$(PY) -m pytest -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder

## lint: ruff over the whole tree (pyproject.toml [tool.ruff]; `.venv/bin/ruff check --fix .` mends what it can)
lint: $(STAMP)
	$(VENV)/bin/ruff check .

clean:
	rm -rf var .pytest_cache
	find . -name __pycache__ -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
