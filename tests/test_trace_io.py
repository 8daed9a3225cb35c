"""The on-disk trace format: round trip, atomic writes, corruption detection, the cache."""

import json
import zipfile

import numpy as np
import pytest

from layerwise_core import tracing
from layerwise_core.errors import CorruptCacheError
from layerwise_core.trace import Trace, load_npz, read_meta, save_npz


def test_round_trip_and_meta(tmp_path):
    arrays = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.ones(3)}
    save_npz(tmp_path / "t.npz", arrays, {"kind": "trace", "model": {"name": "x"}})
    meta, back = load_npz(tmp_path / "t.npz")
    assert meta["kind"] == "trace" and meta["format_version"] == 2
    for k in arrays:
        np.testing.assert_array_equal(back[k], arrays[k])
    assert [p.name for p in tmp_path.iterdir()] == ["t.npz"]      # no temp file left


def test_no_pickles_inside(tmp_path):
    save_npz(tmp_path / "t.npz", {"a": np.zeros(2)}, {"kind": "trace"})
    with zipfile.ZipFile(tmp_path / "t.npz") as z:
        for name in z.namelist():
            header = z.read(name)[:128]
            assert b"'descr': '|O'" not in header and b"'descr': 'O'" not in header


def test_truncated_file_is_detected(tmp_path):
    p = tmp_path / "t.npz"
    save_npz(p, {"a": np.random.default_rng(0).normal(size=1000)}, {"kind": "trace"})
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptCacheError, match="t.npz"):
        load_npz(p)


def test_altered_bytes_are_detected(tmp_path):
    p = tmp_path / "t.npz"
    save_npz(p, {"a": np.zeros(1000)}, {"kind": "trace"})
    meta = read_meta(p)
    arrays = {"a": np.zeros(1000)}
    arrays["a"][500] = 1.0                       # same shapes, different numbers
    import numpy  # rewrite the zip with the old meta but new numbers
    blob = numpy.frombuffer(json.dumps(meta).encode(), dtype=numpy.uint8)
    with open(p, "wb") as f:
        numpy.savez(f, __meta__=blob, **arrays)
    with pytest.raises(CorruptCacheError, match="checksum"):
        load_npz(p)


def test_cache_hit_does_not_recompute(tmp_path, monkeypatch):
    first = tracing.get_trace("toy-2d", "bank", cache_dir=tmp_path)

    def boom(*a, **k):
        raise AssertionError("recomputed a cached trace")
    monkeypatch.setattr(tracing, "compute_trace", boom)
    second = tracing.get_trace("toy-2d", "bank", cache_dir=tmp_path)
    assert second.path == first.path
    assert second.meta["arrays_sha256"] == first.meta["arrays_sha256"]


def test_corrupt_cache_entry_is_rebuilt(tmp_path):
    t = tracing.get_trace("toy-2d", "bank", cache_dir=tmp_path)
    t.path.write_bytes(t.path.read_bytes()[:100])
    again = tracing.get_trace("toy-2d", "bank", cache_dir=tmp_path)
    assert again.meta["arrays_sha256"] == t.meta["arrays_sha256"]
    Trace.load(again.path)                        # sound again


def test_key_depends_on_sentence_and_model(tmp_path):
    a = tracing.cached_path("toy-2d", "bank", tmp_path)
    assert a == tracing.cached_path("toy-2d", "bank", tmp_path)
    assert a != tracing.cached_path("toy-2d", "river", tmp_path)
    assert a != tracing.cached_path("minilm-l6", "bank", tmp_path)


def test_export_writes_weights_beside(tmp_path):
    t = tracing.get_trace("toy-2d", "bank", cache_dir=tmp_path / "cache",
                          out=tmp_path / "out" / "toy.npz")
    assert t.path == tmp_path / "out" / "toy.npz"
    assert (tmp_path / "out" / t.meta["weights_file"]).is_file()
    assert set(t.weights()) >= {"blocks.0.attn.W_Q", "blocks.2.attn.W_V"}


def test_missing_weights_sidecar_is_rebuilt(tmp_path):
    t = tracing.get_trace("toy-2d", "bank", cache_dir=tmp_path)
    side = t.path.parent / t.meta["weights_file"]
    side.unlink()
    again = tracing.get_trace("toy-2d", "bank", cache_dir=tmp_path)
    assert side.is_file() and set(again.weights()) == set(t.weights())
