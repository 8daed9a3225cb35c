"""per_head's numbers against Hugging Face's BertModel (MiniLM-L6 read offline from its
package): bank's X, the followed head's query, keys and values (the query/key/value Linear
outputs, hooked), the dot products and scores recomputed from them with BERT's own scaling,
the weights and every head's whole matrix (output_attentions), the head's output (the
self-attention's output, hooked), the previous-token scores and the cosines between heads'
weights (the Linear weights)."""

from __future__ import annotations

import json
import os

os.environ["HF_HUB_OFFLINE"] = "1"  # before transformers is imported: never touch the network
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import numpy as np
import pytest
import torch

from layerwise_core.models import REGISTRY
from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard

from conftest import ROOT

pytestmark = pytest.mark.slow

SPEC = REGISTRY["minilm-l6"].spec
STORYBOARD = ROOT / "layerwise_templates" / "per_head" / "per_head.yaml"
TOL = 1e-5          # float32 activations: ours and HF's differ by ~1e-7 (weights) to ~1e-6
DOT_TOL = 1e-4      # dot products up to ~130: float32 projections summed over 32 dims


def run(model, ids: list[int]) -> dict:
    """hidden states, attentions, and per layer the q/k/v Linear outputs and the
    self-attention's output (the heads' weighted values), each [pos, head, d_head]."""
    got, handles = {}, []
    n, H, dh = len(ids), SPEC.n_heads, SPEC.d_head
    for l, layer in enumerate(model.encoder.layer):
        att = layer.attention.self
        for name in ("query", "key", "value"):
            handles.append(getattr(att, name).register_forward_hook(
                lambda _m, _i, out, key=(l, name): got.__setitem__(key, out[0])))
        handles.append(att.register_forward_hook(
            lambda _m, _i, out, key=(l, "z"): got.__setitem__(key, out[0][0])))
    try:
        with torch.no_grad():
            out = model(input_ids=torch.tensor([ids]), output_hidden_states=True,
                        output_attentions=True)
    finally:
        for h in handles:
            h.remove()
    acts = {k: v.numpy().astype(np.float64).reshape(n, H, dh) for k, v in got.items()}
    return {"hidden": [h[0].numpy().astype(np.float64) for h in out.hidden_states],
            "attn": [a[0].numpy().astype(np.float64) for a in out.attentions], **acts}


def test_per_head_matches_transformers(minilm_hf, cache_dir):
    model, tok = minilm_hf
    sb = load_storyboard(STORYBOARD)
    d = json.loads(json.dumps(build_plan(sb, cache_dir=cache_dir)))["data"]
    enc = tok(sb.sentences[0])
    tokens = tok.convert_ids_to_tokens(enc["input_ids"])
    assert tokens == d["tokens"]
    f = tokens.index("bank")
    assert d["focus"]["pos"] == f
    r = run(model, enc["input_ids"])
    scaling = model.encoder.layer[0].attention.self.scaling          # BERT's 1 / sqrt(d_head)
    assert d["scale"] == pytest.approx(1 / scaling, rel=1e-12)
    print("\nhead  dot(q_bank, k)  weights  (MiniLM-L6 layer 0 via transformers)")
    for lay in d["layers"]:
        l = lay["layer"]
        np.testing.assert_allclose(lay["x"], r["hidden"][l][f, :3], atol=TOL)
        A = r["attn"][l]                                               # [head, q, k]
        np.testing.assert_allclose(lay["patterns"], A, atol=TOL)
        q = np.arange(1, A.shape[1])
        prev = A[:, q, q - 1].mean(axis=1)
        np.testing.assert_allclose(lay["prev_token"], prev, atol=TOL)
        assert lay["prev"]["head"] == int(np.argmax(prev))
        assert lay["prev"]["next_best"] == pytest.approx(np.sort(prev)[-2], abs=TOL)
        att = model.encoder.layer[l].attention.self
        for X, lin in zip("QKV", (att.query, att.key, att.value)):
            w = lin.weight.detach().numpy().astype(np.float64)            # [head*dh, d_model]
            flat = w.reshape(SPEC.n_heads, -1)                           # each head's rows
            c = flat @ flat.T / np.outer(np.linalg.norm(flat, axis=1), np.linalg.norm(flat, axis=1))
            pairs = c[np.triu_indices(SPEC.n_heads, k=1)]
            assert lay["w_cos"][X]["max_abs"] == pytest.approx(np.abs(pairs).max(), abs=TOL)
            assert lay["w_cos"][X]["mean"] == pytest.approx(pairs.mean(), abs=TOL)
        for h in lay["heads"]:
            i = h["head"]
            Q, K, V = (r[l, name][:, i] for name in ("query", "key", "value"))
            np.testing.assert_allclose(h["q"], Q[f, :3], atol=TOL)
            np.testing.assert_allclose(h["k"], K[:, :3], atol=TOL)
            np.testing.assert_allclose(h["v"], V[:, :3], atol=TOL)
            dots = K @ Q[f]
            np.testing.assert_allclose(h["dots"], dots, atol=DOT_TOL)
            np.testing.assert_allclose(h["scores"], dots * scaling, atol=DOT_TOL)
            np.testing.assert_allclose(h["weights"], A[i, f], atol=TOL)
            np.testing.assert_allclose(h["out"], r[l, "z"][f, i, :3], atol=TOL)
            np.testing.assert_allclose(h["below"][1:], [A[i, k, k - 1] for k in q], atol=TOL)
            top = int(np.argmax(A[i, f]))
            assert (h["top"]["pos"], h["top"]["token"]) == (top, tokens[top])
            print(f"{i:4d}  " + " ".join(f"{x:7.1f}" for x in dots) + "\n      "
                  + " ".join(f"{x:7.3f}" for x in A[i, f]))
