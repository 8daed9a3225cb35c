"""Our hand-written MiniLM-L6 forward against Hugging Face's BertModel on the same weights.

Also pins the hook order and the algebra the scenes rely on (q = x @ W_Q + b_Q per head, the
residual adds, the post-LN re-normalisation) on the recorded arrays themselves.
"""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"  # before transformers is imported: never touch the network
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import numpy as np
import pytest
import torch

from layerwise_core.errors import BadSentenceError, SentenceTooLongError
from layerwise_core.models import REGISTRY, load_model
from layerwise_core.models.base import Recorder
from layerwise_core.models.checkpoint import sha256_file
from layerwise_core.names import block_hooks
from layerwise_core.packages import package_dir, package_version

pytestmark = pytest.mark.slow

SPEC = REGISTRY["minilm-l6"].spec
TOL = 1e-4
SENTENCES = [
    "I sat on the river bank.",
    "Unbelievably, the naïve café-owner's embeddings weren't tokenized well!",
    "The bank raised rates in 2024; 東京 stocks fell 3.5% (ugh)...",
]


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return load_model("minilm-l6", tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="module")
def hf():
    import transformers
    model = transformers.BertModel.from_pretrained(
        package_dir(SPEC.package) / "model", attn_implementation="eager", local_files_only=True)
    return model.eval().to(torch.float32)


def ours(model, sentence):
    tok = model.tokenize(sentence)
    rec = Recorder()
    model.run(list(tok.ids), rec)
    return tok, rec.acts


def reference(hf, ids):
    """HF hidden states, attention patterns and the raw q/k/v Linear outputs, batch dim dropped."""
    qkv = {}
    handles = []
    for l, layer in enumerate(hf.encoder.layer):
        for name in ("query", "key", "value"):
            def hook(_mod, _inp, out, key=(l, name)):
                qkv[key] = out[0].detach().reshape(len(ids), SPEC.n_heads, SPEC.d_head).numpy()
            handles.append(getattr(layer.attention.self, name).register_forward_hook(hook))
    try:
        with torch.no_grad():
            out = hf(input_ids=torch.tensor([ids]), output_hidden_states=True,
                     output_attentions=True)
    finally:
        for h in handles:
            h.remove()
    hidden = [h[0].numpy() for h in out.hidden_states]
    attn = [a[0].numpy() for a in out.attentions]
    return hidden, attn, qkv


def maxdiff(a, b):
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


# --- against the reference implementation ---------------------------------------------------

@pytest.mark.parametrize("sentence", SENTENCES)
def test_matches_transformers(model, hf, sentence):
    tok, acts = ours(model, sentence)
    hidden, attn, qkv = reference(hf, list(tok.ids))
    assert len(hidden) == SPEC.n_layers + 1 and len(attn) == SPEC.n_layers

    diffs = {}
    for l in range(SPEC.n_layers):
        b = f"blocks.{l}"
        diffs[f"{b}.hook_resid_pre"] = maxdiff(acts[f"{b}.hook_resid_pre"], hidden[l])
        diffs[f"{b}.attn.hook_pattern"] = maxdiff(acts[f"{b}.attn.hook_pattern"], attn[l])
        for X, name in (("q", "query"), ("k", "key"), ("v", "value")):
            diffs[f"{b}.attn.hook_{X}"] = maxdiff(acts[f"{b}.attn.hook_{X}"], qkv[(l, name)])
    last = f"blocks.{SPEC.n_layers - 1}.ln2.hook_normalized"
    diffs[last] = maxdiff(acts[last], hidden[-1])

    worst = max(diffs, key=diffs.get)
    print(f"\n{sentence!r} ({len(tok)} tokens): worst {worst} {diffs[worst]:.2e}")
    kinds = ("hook_resid_pre", "hook_pattern", "hook_q", "hook_k", "hook_v", "ln2.hook_normalized")
    for kind in kinds:
        print(f"  {kind:22s} max |ours - hf| = "
              f"{max(v for k, v in diffs.items() if k.endswith(kind)):.2e}")
    bad = {k: v for k, v in diffs.items() if not v <= TOL}
    assert not bad, bad


@pytest.mark.parametrize("sentence", SENTENCES)
def test_tokenizer_matches_transformers(model, sentence):
    import transformers
    ref = transformers.AutoTokenizer.from_pretrained(package_dir(SPEC.package) / "model",
                                                     local_files_only=True)
    tok = model.tokenize(sentence)
    assert list(tok.ids) == ref(sentence)["input_ids"]
    assert list(tok.tokens) == ref.convert_ids_to_tokens(list(tok.ids))
    assert tok.tokens[0] == "[CLS]" and tok.tokens[-1] == "[SEP]"
    assert tok.offsets[0] == (0, 0) and tok.offsets[-1] == (0, 0)
    for t, (s, e) in zip(tok.tokens[1:-1], tok.offsets[1:-1]):
        assert 0 <= s < e <= len(sentence), (t, s, e)
        # the span is the token's own text (modulo case, accents and the ## continuation mark)
        if t != "[UNK]" and sentence[s:e].isascii():
            assert sentence[s:e].lower() == t.removeprefix("##"), (t, sentence[s:e])


def test_wordpiece_strings(model):
    tok = model.tokenize("Unbelievably embeddings")
    assert any(t.startswith("##") for t in tok.tokens), tok.tokens
    assert [model.token_string(i) for i in tok.ids] == list(tok.tokens)


# --- the recorded arrays obey the algebra the scenes draw -----------------------------------

def test_hook_order_and_shapes(model):
    tok, acts = ours(model, SENTENCES[1])
    expected = ["hook_embed", "hook_pos_embed", "hook_token_type_embed",
                "embed_ln.hook_scale", "embed_ln.hook_normalized"]
    for l in range(SPEC.n_layers):
        expected += block_hooks(l, norm_placement="post", rotary=False, gated_mlp=False)
    assert list(acts) == expected

    P, H, dh = len(tok), SPEC.n_heads, SPEC.d_head
    shapes = {"hook_embed": (P, SPEC.d_model), "embed_ln.hook_scale": (P, 1),
              "blocks.2.attn.hook_q": (P, H, dh), "blocks.2.attn.hook_z": (P, H, dh),
              "blocks.2.attn.hook_attn_scores": (H, P, P), "blocks.2.attn.hook_pattern": (H, P, P),
              "blocks.2.mlp.hook_pre": (P, SPEC.d_mlp), "blocks.2.mlp.hook_post": (P, SPEC.d_mlp),
              "blocks.2.ln1.hook_scale": (P, 1), "blocks.2.hook_mlp_out": (P, SPEC.d_model)}
    for name, shape in shapes.items():
        assert acts[name].shape == shape, name
    assert all(a.dtype == np.float32 for a in acts.values())


def _layer_norm(x, scale, w, b):
    return (x - x.mean(-1, keepdims=True)) / scale * w + b


def test_identities_every_layer_and_head(model):
    tok, acts = ours(model, SENTENCES[1])
    W = model.attention_weights()
    x0 = acts["hook_embed"] + acts["hook_pos_embed"] + acts["hook_token_type_embed"]
    assert maxdiff(_layer_norm(x0, acts["embed_ln.hook_scale"], W["embed_ln.w"], W["embed_ln.b"]),
                   acts["embed_ln.hook_normalized"]) <= TOL
    assert maxdiff(acts["embed_ln.hook_normalized"], acts["blocks.0.hook_resid_pre"]) == 0.0

    gaps = []
    for l in range(SPEC.n_layers):
        b, a = f"blocks.{l}", lambda name: acts[f"blocks.{l}.{name}"]
        x = a("hook_resid_pre")
        for h in range(SPEC.n_heads):
            for X in "QKV":
                pred = x @ W[f"{b}.attn.W_{X}"][h] + W[f"{b}.attn.b_{X}"][h]
                assert maxdiff(pred, a(f"attn.hook_{X.lower()}")[:, h]) <= TOL, (l, h, X)
            # scores are q.k / sqrt(d_head); the pattern is their row softmax
            q, k = a("attn.hook_q")[:, h], a("attn.hook_k")[:, h]
            assert maxdiff(q @ k.T / np.sqrt(SPEC.d_head), a("attn.hook_attn_scores")[h]) <= TOL
            z = a("attn.hook_pattern")[h] @ a("attn.hook_v")[:, h]
            assert maxdiff(z, a("attn.hook_z")[:, h]) <= TOL, (l, h)
        pattern = a("attn.hook_pattern")
        assert maxdiff(pattern.sum(-1), np.ones(pattern.shape[:2])) <= TOL
        assert (pattern >= 0).all()
        s = a("attn.hook_attn_scores")
        softmax = np.exp(s - s.max(-1, keepdims=True))
        assert maxdiff(softmax / softmax.sum(-1, keepdims=True), pattern) <= TOL

        heads = sum(a("attn.hook_z")[:, h] @ W[f"{b}.attn.W_O"][h] for h in range(SPEC.n_heads))
        assert maxdiff(heads + W[f"{b}.attn.b_O"], a("hook_attn_out")) <= TOL, l
        assert maxdiff(x + a("hook_attn_out"), a("hook_resid_mid")) <= TOL, l
        assert maxdiff(_layer_norm(a("hook_resid_mid"), a("ln1.hook_scale"), W[f"{b}.ln1.w"],
                                   W[f"{b}.ln1.b"]), a("ln1.hook_normalized")) <= TOL, l
        gelu = torch.nn.functional.gelu(torch.from_numpy(a("mlp.hook_pre"))).numpy()
        assert maxdiff(gelu, a("mlp.hook_post")) <= TOL, l
        assert maxdiff(a("ln1.hook_normalized") + a("hook_mlp_out"), a("hook_resid_post")) <= TOL
        assert maxdiff(_layer_norm(a("hook_resid_post"), a("ln2.hook_scale"), W[f"{b}.ln2.w"],
                                   W[f"{b}.ln2.b"]), a("ln2.hook_normalized")) <= TOL, l
        if l + 1 < SPEC.n_layers:
            assert maxdiff(acts[f"blocks.{l + 1}.hook_resid_pre"], a("ln2.hook_normalized")) == 0.0

        # post-LN honesty: the stream is re-normalised, so the pre-LN sum does not hold
        gap = maxdiff(x + a("hook_attn_out") + a("hook_mlp_out"), a("hook_resid_post"))
        assert gap > 0.1, (l, gap)
        gaps.append(gap)
    print(f"\npost-LN gap |resid_pre + attn_out + mlp_out - resid_post| per layer: "
          f"{', '.join(f'{g:.2f}' for g in gaps)}")


def test_attention_weights_layout(model):
    W = model.attention_weights()
    d, H, dh = SPEC.d_model, SPEC.n_heads, SPEC.d_head
    for l in range(SPEC.n_layers):
        b = f"blocks.{l}.attn"
        for X in "QKV":
            assert W[f"{b}.W_{X}"].shape == (H, d, dh) and W[f"{b}.b_{X}"].shape == (H, dh)
        assert W[f"{b}.W_O"].shape == (H, dh, d) and W[f"{b}.b_O"].shape == (d,)
    assert all(v.dtype == np.float32 for v in W.values())
    folder = package_dir(SPEC.package) / "model"
    assert model.source["package"] == SPEC.package
    assert model.source["package_version"] == package_version(SPEC.package) is not None
    assert model.source["path"] == str(folder.resolve())
    assert set(model.source["files"]) == {"config.json", "model.safetensors", "tokenizer.json"}
    assert model.source["files"]["model.safetensors"] == sha256_file(folder / "model.safetensors")


# --- user errors ------------------------------------------------------------------------------

def test_too_long_sentence_raises(model):
    sentence = " ".join(["word"] * 600)
    with pytest.raises(SentenceTooLongError) as e:
        model.tokenize(sentence)
    assert "\n" not in str(e.value) and "602" in str(e.value)


@pytest.mark.parametrize("bad", ["", "   \n", None])
def test_bad_sentence_raises(model, bad):
    with pytest.raises(BadSentenceError):
        model.tokenize(bad)
