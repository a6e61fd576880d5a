# Two commands that work on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

$(BIN)/companion: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

.PHONY: setup run demo test bench pi-check
setup: $(BIN)/companion

run: setup
	$(BIN)/companion run --lang $${LANG_CODE:-en}

demo: setup
	$(BIN)/companion replay examples/$${GAME:-last-bastion}-demo.jsonl --lang $${LANG_CODE:-en} \
		--data-dir $${DATA_DIR:-$$(mktemp -d)}

test: setup
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/pytest -n $${TEST_WORKERS:-auto} --dist loadfile

bench: setup
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/web.py
	$(BIN)/python benchmarks/inputs.py
	$(BIN)/python benchmarks/vision.py
	systemd-analyze security --offline=true systemd/companion.service | tail -1
	$(BIN)/python benchmarks/cafe.py --minutes 1

# The installer and the companion in Debian Bookworm arm64 and armhf userlands under qemu (as
# root; the userlands are cached in /var/cache/companion-pi-check; .ci/run runs it beside the
# tests): tools/pichecks/pi-check.sh
pi-check: setup
	bash tools/pichecks/pi-check.sh
