"""Shared fixtures: one trace cache per test session (traces are content-addressed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
STORYBOARDS = sorted((ROOT / "scenes" / "storyboards").glob("*.yaml"))


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
