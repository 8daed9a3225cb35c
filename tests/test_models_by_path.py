"""Models by path, through the real loading code: Hugging Face folders and GGUF files.

* tiny random checkpoints made here with `transformers` (test-only) for every supported
  model_type, saved with `save_pretrained`, traced by path and compared layer by layer with
  `transformers`' eager forward (hidden states, Q/K/V, patterns, the logit lens and its
  summaries: top-k probabilities, the answer's probability and rank) to 1e-4;
* the MiniLM package folder by path gives the built-in `minilm-l6` trace, and SmolLM2's GGUF
  weights written as a Hugging Face llama folder give the built-in `smollm2-135m` trace;
* bad folders and files: one line, exit 2, nothing written.
"""

from __future__ import annotations

import json
import os
import shutil

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import numpy as np
import pytest
import torch

from layerwise_core.analysis.attention_steps import query_steps
from layerwise_core.cli import main
from layerwise_core.models import REGISTRY
from layerwise_core.packages import package_dir
from layerwise_core.tracing import get_trace

SENTENCE = "The river bank was quiet, and the bank raised rates in 2024."
D_MODEL, N_LAYERS, N_HEADS = 64, 3, 4
MINILM = package_dir(REGISTRY["minilm-l6"].spec.package) / "model"
TOL = 1e-4


def assert_close(ours, expected, what):
    """max |ours - expected| <= TOL * max(1, max |expected|)."""
    expected = np.asarray(expected, np.float64)
    ours = np.asarray(ours, np.float64)
    assert ours.shape == expected.shape, (what, ours.shape, expected.shape)
    scale = max(1.0, float(np.abs(expected[np.isfinite(expected)]).max()))
    finite = np.isfinite(expected)
    assert (np.isfinite(ours) == finite).all(), what
    d = float(np.abs(ours[finite] - expected[finite]).max())
    assert d <= TOL * scale, f"{what}: max abs diff {d:.3g} > {TOL * scale:.3g}"


# --- tiny checkpoints ------------------------------------------------------------------------

def byte_bpe(folder):
    """A small byte-level BPE (a few hundred tokens) trained here with `tokenizers`."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  special_tokens=["<|endoftext|>"])
    tok.train_from_iterator([SENTENCE, "The capital of France is Paris.",
                             "I sat on the river bank and watched the water."] * 20, trainer)
    tok.save(str(folder / "tokenizer.json"))
    return tok.get_vocab_size()


def randomise(model, seed):
    """Every parameter random (biases and norm gains too, so none is a silent zero or one)."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.randn(p.shape, generator=g) * (0.3 if p.dim() == 1 else 0.15)
                    + (1.0 if name.endswith(("norm.weight", "ln_1.weight", "ln_2.weight",
                                             "ln_f.weight", "LayerNorm.weight")) else 0.0))
    return model.eval()


def make_checkpoint(arch, folder, **save):
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    if arch == "bert":
        shutil.copy(MINILM / "tokenizer.json", folder / "tokenizer.json")
        vocab = json.loads((MINILM / "config.json").read_text())["vocab_size"]
        cfg = tf.BertConfig(vocab_size=vocab, hidden_size=D_MODEL, num_hidden_layers=N_LAYERS,
                            num_attention_heads=N_HEADS, intermediate_size=128,
                            max_position_embeddings=64)
        model = tf.BertModel(cfg, add_pooling_layer=False)
    else:
        vocab = byte_bpe(folder)
        if arch == "gpt2":
            cfg = tf.GPT2Config(vocab_size=vocab, n_embd=D_MODEL, n_layer=N_LAYERS,
                                n_head=N_HEADS, n_positions=64)
            model = tf.GPT2LMHeadModel(cfg)
        else:
            kw = dict(vocab_size=vocab, hidden_size=D_MODEL, intermediate_size=112,
                      num_hidden_layers=N_LAYERS, num_attention_heads=N_HEADS,
                      num_key_value_heads=2, max_position_embeddings=64, rope_theta=5000.0,
                      rms_norm_eps=1e-6)
            cls = {"llama": (tf.LlamaConfig, tf.LlamaForCausalLM),
                   "qwen2": (tf.Qwen2Config, tf.Qwen2ForCausalLM),
                   "mistral": (tf.MistralConfig, tf.MistralForCausalLM)}[arch]
            tied = arch == "qwen2"
            cfg = cls[0](**kw, tie_word_embeddings=tied)
            model = cls[1](cfg)
    model = randomise(model, seed=len(arch))
    model.config._attn_implementation = "eager"
    model.save_pretrained(folder, safe_serialization=True, **save)
    return model


def hf_reference(arch, model, ids):
    """transformers' hidden states [n+1][pos, d], patterns [n][head, q, k], the raw q/k/v
    projections [n][pos, head, d_head], and the logit lens of every layer's output."""
    qkv, handles = {}, []
    n = len(ids)
    if arch == "bert":
        layers = model.encoder.layer
        mods = lambda L: {"q": L.attention.self.query, "k": L.attention.self.key,  # noqa: E731
                          "v": L.attention.self.value}
    elif arch == "gpt2":
        layers = model.transformer.h
        mods = lambda L: {"qkv": L.attn.c_attn}                                     # noqa: E731
    else:
        layers = model.model.layers
        mods = lambda L: {"q": L.self_attn.q_proj, "k": L.self_attn.k_proj,         # noqa: E731
                          "v": L.self_attn.v_proj}
    for l, layer in enumerate(layers):
        for key, mod in mods(layer).items():
            def hook(_m, _i, out, key=key, l=l):
                qkv[l, key] = out[0].detach().numpy()
            handles.append(mod.register_forward_hook(hook))
    try:
        with torch.no_grad():
            out = model(torch.tensor([ids]), output_hidden_states=True, output_attentions=True)
    finally:
        for h in handles:
            h.remove()
    if arch == "gpt2":
        for l in range(len(layers)):
            q, k, v = np.split(qkv.pop((l, "qkv")), 3, axis=-1)
            qkv[l, "q"], qkv[l, "k"], qkv[l, "v"] = q, k, v
    qkv = {key: v.reshape(n, -1, D_MODEL // N_HEADS) for key, v in qkv.items()}
    hidden = [h[0].numpy() for h in out.hidden_states]
    lens = None
    if arch != "bert":
        norm = model.transformer.ln_f if arch == "gpt2" else model.model.norm
        with torch.no_grad():           # hidden_states[l + 1] is layer l's output (the last
            lens = [model.lm_head(norm(out.hidden_states[l + 1][0])).numpy()   # already normed)
                    for l in range(len(layers) - 1)]
            lens.append(out.logits[0].numpy())
    return hidden, [a[0].numpy() for a in out.attentions], qkv, lens


ARCHS = ["bert", "gpt2", "llama", "qwen2", "mistral"]


@pytest.mark.parametrize("arch", ARCHS)
def test_tiny_checkpoint_matches_transformers_layer_by_layer(arch, tmp_path):
    folder = tmp_path / f"tiny-{arch}"
    # llama's weights in shards, to read model.safetensors.index.json
    hf = make_checkpoint(arch, folder, **({"max_shard_size": "200KB"} if arch == "llama" else {}))
    if arch == "llama":
        assert (folder / "model.safetensors.index.json").is_file()
        assert len(list(folder.glob("*.safetensors"))) > 1
    t = get_trace(str(folder), SENTENCE, cache_dir=tmp_path / "cache")
    spec = t.spec
    assert spec.arch == arch and spec.n_layers == N_LAYERS and spec.d_model == D_MODEL
    assert spec.n_kv_heads == (N_HEADS if arch in ("bert", "gpt2") else 2)
    assert t.meta["source"]["path"] == str(folder.resolve())
    ids = t.meta["token_ids"]
    hidden, patterns, qkv, lens = hf_reference(arch, hf, ids)
    last = spec.placement.layer_out.format(l=N_LAYERS - 1)
    for l in range(N_LAYERS):
        assert_close(t[f"blocks.{l}.hook_resid_pre"], hidden[l], f"{arch} resid_pre {l}")
        assert_close(t[f"blocks.{l}.attn.hook_pattern"], patterns[l], f"{arch} pattern {l}")
        for x in "qkv":
            assert_close(t[f"blocks.{l}.attn.hook_{x}"], qkv[l, x], f"{arch} {x} {l}")
        for h in range(N_HEADS):    # per_head's worked steps (RoPE, grouped K/V, the mask)
            for f in (0, len(ids) // 2, len(ids) - 1):
                s = query_steps(t, l, h, f)
                scores = [-np.inf if x is None else x for x in s["scores"]]
                assert_close(scores, t[f"blocks.{l}.attn.hook_attn_scores"][h, f],
                             f"{arch} scores {l} {h} {f}")
                assert_close(s["weights"], patterns[l][h, f], f"{arch} weights {l} {h} {f}")
                assert_close(s["out"], t[f"blocks.{l}.attn.hook_z"][f, h], f"{arch} z {l} {h}")
    if arch == "bert":
        assert_close(t[last], hidden[N_LAYERS], f"{arch} output")
    else:       # the last hidden state is after the final norm; the lens of every layer
        assert_close(t["ln_final.hook_normalized"], hidden[N_LAYERS], f"{arch} final norm")
        assert_close(t["logits"], lens[-1], f"{arch} logits")
        model_lens = t["lens.resid_post.top_ids"]        # the trace's own lens summaries
        for l in range(N_LAYERS):
            theirs = lens[l]
            assert (model_lens[l][:, 0] == theirs.argmax(-1)).all() or \
                np.allclose(np.sort(theirs, -1)[:, -1], np.sort(theirs, -1)[:, -2], atol=1e-4)
        from layerwise_core.models import load_model
        m = load_model(str(folder), tmp_path / "cache")
        for l in range(N_LAYERS):
            assert_close(m.unembed(t[f"blocks.{l}.hook_resid_post"]), lens[l], f"{arch} lens {l}")
        # the lens summaries a plan shows (top-k probabilities, the answer's probability and
        # rank), from transformers' logits: softmax of every layer's lens
        target = lens[-1].argmax(-1)
        rows = np.arange(len(ids))
        for l in range(N_LAYERS):
            z = lens[l].astype(np.float64)
            lp = z - z.max(-1, keepdims=True)
            lp -= np.log(np.exp(lp).sum(-1, keepdims=True))
            top = t["lens.resid_post.top_ids"][l]
            assert_close(t["lens.resid_post.top_probs"][l],
                         np.exp(np.take_along_axis(lp, top, -1)), f"{arch} lens top-k {l}")
            assert_close(t["lens.resid_post.final_prob"][l], np.exp(lp[rows, target]),
                         f"{arch} lens answer probability {l}")
            ranks = (lp > lp[rows, target][:, None]).sum(-1)
            near = (np.abs(lp - lp[rows, target][:, None]) < 1e-4).sum(-1)    # ties within 1e-4
            assert (np.abs(t["lens.resid_post.final_rank"][l] - ranks) <= near).all(), \
                f"{arch} lens answer rank {l}"


def test_same_name_other_weights_is_another_trace(tmp_path):
    """Two folders of one name with different weights never share a cached trace."""
    a, b = tmp_path / "one" / "tiny", tmp_path / "two" / "tiny"
    make_checkpoint("bert", a)
    shutil.copytree(a, b)
    from safetensors.torch import load_file, save_file
    sd = load_file(str(b / "model.safetensors"))
    sd["encoder.layer.0.attention.self.query.weight"] *= -1
    save_file(sd, str(b / "model.safetensors"))
    ta = get_trace(str(a), SENTENCE, cache_dir=tmp_path / "cache")
    tb = get_trace(str(b), SENTENCE, cache_dir=tmp_path / "cache")
    assert ta.model == tb.model == "tiny" and ta.path != tb.path
    assert ta.meta["source"]["files"]["model.safetensors"] != \
        tb.meta["source"]["files"]["model.safetensors"]
    assert not np.array_equal(ta["blocks.0.attn.hook_q"], tb["blocks.0.attn.hook_q"])
    np.testing.assert_array_equal(ta["blocks.0.attn.hook_k"], tb["blocks.0.attn.hook_k"])


# --- the built-ins, by path ------------------------------------------------------------------

def same_arrays(a, b):
    assert list(a.arrays) == list(b.arrays)
    for k in a.arrays:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)


@pytest.mark.slow
def test_minilm_folder_by_path_is_the_builtin_trace(tmp_path):
    cache = tmp_path / "cache"
    built_in = get_trace("minilm-l6", SENTENCE, cache_dir=cache)
    by_path = get_trace(str(MINILM), SENTENCE, cache_dir=cache)
    assert by_path.path != built_in.path and by_path.meta["source"]["package"] is None
    assert by_path.meta["source"]["files"] == built_in.meta["source"]["files"]
    same_arrays(by_path, built_in)
    wa, wb = by_path.weights(), built_in.weights()
    assert list(wa) == list(wb) and all(np.array_equal(wa[k], wb[k]) for k in wa)
    spec_a, spec_b = by_path.spec, built_in.spec
    assert {**spec_a.to_json(), "name": 0, "display": 0, "package": 0} == \
        {**spec_b.to_json(), "name": 0, "display": 0, "package": 0}


@pytest.mark.slow
def test_smollm2_gguf_written_as_hf_folder_gives_the_gguf_trace(tmp_path):
    """SmolLM2's GGUF weights, dequantised and written as a Hugging Face llama folder
    (safetensors + config.json + tokenizer.json), traced by path: the GGUF trace exactly."""
    from safetensors.torch import save_file
    import transformers as tf

    from layerwise_core.models import gguf_weights

    e = REGISTRY["smollm2-135m"]
    gguf = package_dir(e.spec.package) / e.relative
    config, tensors, tokenizer = gguf_weights.read_gguf(gguf)
    folder = tmp_path / "smollm2-hf"
    folder.mkdir()
    save_file({k: torch.from_numpy(v).contiguous() for k, v in tensors.items()},
              str(folder / "model.safetensors"))
    tf.LlamaConfig(vocab_size=config["vocab_size"], hidden_size=config["hidden_size"],
                   intermediate_size=config["intermediate_size"],
                   num_hidden_layers=config["num_hidden_layers"],
                   num_attention_heads=config["num_attention_heads"],
                   num_key_value_heads=config["num_key_value_heads"],
                   max_position_embeddings=config["max_position_embeddings"],
                   rms_norm_eps=config["rms_norm_eps"], rope_theta=config["rope_theta"],
                   tie_word_embeddings=True).save_pretrained(folder)
    tokenizer.save(str(folder / "tokenizer.json"))
    cache = tmp_path / "cache"
    by_gguf = get_trace("smollm2-135m", SENTENCE, cache_dir=cache)
    by_path = get_trace(str(folder), SENTENCE, cache_dir=cache)
    assert by_path.spec.rope_theta == by_gguf.spec.rope_theta
    assert by_path.spec.eps == pytest.approx(by_gguf.spec.eps, rel=1e-6)
    if by_path.spec.eps == by_gguf.spec.eps:
        same_arrays(by_path, by_gguf)
    else:        # config.json holds eps as a float64 decimal: the last bits may move
        for k in by_gguf.arrays:
            assert_close(by_path[k], by_gguf[k], k)


# --- bad folders and files: one line, exit 2, nothing written ---------------------------------

def bad_cases(tmp_path):
    cases = {}
    empty = tmp_path / "empty"
    empty.mkdir(parents=True)
    cases["empty"] = (empty, "no config.json")
    t5 = tmp_path / "t5"
    t5.mkdir()
    (t5 / "config.json").write_text(json.dumps({"model_type": "t5"}))
    cases["t5"] = (t5, "model_type 't5' is not supported; supported: bert, gpt2, llama")
    good = tmp_path / "good"
    make_checkpoint("bert", good)
    no_weights = tmp_path / "no-weights"
    shutil.copytree(good, no_weights)
    (no_weights / "model.safetensors").unlink()
    cases["no-weights"] = (no_weights, "no *.safetensors weights")
    truncated = tmp_path / "truncated"
    shutil.copytree(good, truncated)
    w = truncated / "model.safetensors"
    w.write_bytes(w.read_bytes()[: w.stat().st_size // 2])
    cases["truncated"] = (truncated, "not a readable safetensors file")
    shard = tmp_path / "missing-shard"
    make_checkpoint("llama", shard, max_shard_size="200KB")
    next(iter(sorted(shard.glob("model-*.safetensors")))).unlink()
    cases["missing-shard"] = (shard, "which is missing")
    small_vocab = tmp_path / "small-vocab"
    shutil.copytree(good, small_vocab)
    cfg = json.loads((small_vocab / "config.json").read_text())
    (small_vocab / "config.json").write_text(json.dumps({**cfg, "vocab_size": 1000}))
    cases["small-vocab"] = (small_vocab, "the tokenizer has 30522 tokens but the embedding has "
                                         "1000 rows")
    no_tok = tmp_path / "no-tokenizer"
    shutil.copytree(good, no_tok)
    (no_tok / "tokenizer.json").unlink()
    cases["no-tokenizer"] = (no_tok, "no tokenizer.json")
    gguf = tmp_path / "junk.gguf"
    gguf.write_bytes(b"GGUF" + b"\x00" * 20)
    cases["junk.gguf"] = (gguf, "not a readable GGUF file")
    cases["nowhere"] = (tmp_path / "nowhere" / "model", "no such model folder or file")
    return cases


def test_bad_folders_one_line_exit_2_nothing_written(tmp_path, capsys):
    cache = tmp_path / "cache"
    for name, (path, message) in bad_cases(tmp_path / "models").items():
        capsys.readouterr()
        out = tmp_path / "out" / f"{name}.npz"
        code = main(["--cache", str(cache), "trace", "--model", str(path), "--sentence",
                     SENTENCE, "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 2, (name, err)
        assert err.count("\n") == 1 and err.startswith("error: ") and message in err, (name, err)
        assert not out.exists() and not (cache / "traces").exists(), name


def test_storyboard_model_path_is_relative_to_the_storyboard(tmp_path):
    from layerwise_core.storyboard.schema import load_storyboard

    from conftest import ROOT

    make_checkpoint("gpt2", tmp_path / "ckpt" / "tiny-gpt2")
    sb_dir = tmp_path / "boards"
    sb_dir.mkdir()
    board = sb_dir / "mine.yaml"
    text = (ROOT / "layerwise_templates" / "bank_drift" / "bank_drift.yaml").read_text()
    assert "model: minilm-l6\n" in text
    board.write_text(text.replace("model: minilm-l6\n", "model: ../ckpt/tiny-gpt2\n"))
    sb = load_storyboard(board)
    assert sb.model == str((tmp_path / "ckpt" / "tiny-gpt2").resolve())
    board.write_text(board.read_text().replace("../ckpt/tiny-gpt2", "../ckpt/nope"))
    from layerwise_core.errors import StoryboardError
    with pytest.raises(StoryboardError, match="no such model folder"):
        load_storyboard(board)
