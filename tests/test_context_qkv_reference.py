"""context_qkv's numbers against Hugging Face's BertModel (MiniLM-L6 read offline from its
package): the cosines of "bank"'s X, Q, K, V between the river and the money sentence, and the
first numbers the scene shows, recomputed from transformers' own activations."""

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
STORYBOARD = ROOT / "layerwise_templates" / "context_qkv" / "context_qkv.yaml"
COS_TOL = 1e-5          # cosines of float32 activations: ours and HF's differ by ~1e-6
NUM_TOL = 1e-4          # activations themselves (test_bert_reference's tolerance)


def hf_bank(hf, sentence: str) -> dict:
    """HF's X (hidden state entering each layer) and q/k/v Linear outputs at the "bank" token."""
    model, tok = hf
    ids = tok(sentence)["input_ids"]
    pos = tok.convert_ids_to_tokens(ids).index("bank")
    out, handles = {}, []
    for l, layer in enumerate(model.encoder.layer):
        for k, name in (("q", "query"), ("k", "key"), ("v", "value")):
            def hook(_m, _i, o, key=(k, l)):
                out[key] = o[0, pos].detach().numpy().astype(np.float64)
            handles.append(getattr(layer.attention.self, name).register_forward_hook(hook))
    try:
        with torch.no_grad():
            hidden = model(input_ids=torch.tensor([ids]), output_hidden_states=True).hidden_states
    finally:
        for h in handles:
            h.remove()
    for l in range(SPEC.n_layers):
        out[("x", l)] = hidden[l][0, pos].numpy().astype(np.float64)
    return {"pos": pos, **{f"{k}{l}": v for (k, l), v in out.items()}}


def cos(a, b) -> float:
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_context_qkv_matches_transformers(minilm_hf, cache_dir):
    sb = load_storyboard(STORYBOARD)
    d = json.loads(json.dumps(build_plan(sb, cache_dir=cache_dir)))["data"]
    river, money = (hf_bank(minilm_hf, s) for s in sb.sentences)
    assert [c["positions"] for c in d["contexts"]] == [[river["pos"]], [money["pos"]]]
    print("\nlayer   cos X    cos Q    cos K    cos V    (MiniLM-L6 via transformers)")
    for l in range(SPEC.n_layers):
        ref = {k: cos(river[f"{k}{l}"], money[f"{k}{l}"]) for k in "xqkv"}
        print(f"{l:5d}  " + "  ".join(f"{ref[k]:.5f}" for k in "xqkv"))
        for k in "xqkv":
            assert d["cos"][k][l] == pytest.approx(ref[k], abs=COS_TOL), (k, l)
            for i, r in enumerate((river, money)):
                np.testing.assert_allclose(d["first"][k][l][i], r[f"{k}{l}"][:4], atol=NUM_TOL)
    # layer 0 in transformers too: one vector in both sentences (same token, same position)
    for k in "xqkv":
        assert np.abs(river[f"{k}0"] - money[f"{k}0"]).max() <= NUM_TOL
