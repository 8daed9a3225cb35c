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
