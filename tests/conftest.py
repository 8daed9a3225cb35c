"""Shared fixtures: one trace cache per test session (traces are content-addressed)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# A shell that starts the suite in the background (`.ci/run &`, nohup) hands it SIGINT ignored,
# and every program a test starts inherits that, so the Ctrl-C tests saw no interrupt (exit 0
# or a finished render instead of 130). A user at a terminal has Ctrl-C: give it back here, and
# with it to the children (a handled signal is reset to the default at exec; an ignored one
# stays ignored).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parents[1]
STORYBOARDS = sorted((ROOT / "layerwise_templates").glob("*/*.yaml"))
# the head of a one-sentence toy storyboard that a test writes (its beats follow)
TOY_HEAD = "template: toy_loop\ntitle: {title}\nmodel: toy-2d\nsentences: [bank]\nfocus: bank\nbeats:\n"


def pytest_addoption(parser):
    parser.addoption("--update-snapshots", action="store_true",
                     help="rewrite frame and state goldens instead of comparing")


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    """The session's trace cache ($LAYERWISE_CACHE when set, so `make test` reuses traces)."""
    env = os.environ.get("LAYERWISE_CACHE")
    return Path(env) if env else tmp_path_factory.mktemp("layerwise-cache")


@pytest.fixture(scope="session")
def minilm_bank(cache_dir):
    from layerwise_core.tracing import get_trace
    return get_trace("minilm-l6", "I sat on the river bank.", cache_dir=cache_dir)


@pytest.fixture(scope="session")
def minilm_hf():
    """MiniLM-L6 as transformers' BertModel (eager attention, float32) and its tokenizer, read
    offline from its package: the reference the *_reference tests compare plans with."""
    import torch
    import transformers

    from layerwise_core.models import REGISTRY
    from layerwise_core.packages import package_dir
    path = package_dir(REGISTRY["minilm-l6"].spec.package) / "model"
    model = transformers.BertModel.from_pretrained(path, attn_implementation="eager",
                                                   local_files_only=True)
    tok = transformers.AutoTokenizer.from_pretrained(path, local_files_only=True)
    return model.eval().to(torch.float32), tok


@pytest.fixture(scope="session")
def rendered(cache_dir, tmp_path_factory):
    """The shipped storyboards' plans and preview frames (with mid-play text sizes), each
    rendered once per session on first use: tests/test_snapshots.py and test_legibility.py."""
    import framecheck
    return framecheck.Rendered(cache_dir, tmp_path_factory.mktemp("snap"))
