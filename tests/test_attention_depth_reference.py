"""attention_depth's numbers against Hugging Face's BertModel (MiniLM-L6 read offline from its
package): "bank"'s attention row at every layer (head-average), its share on [CLS]/[SEP], the last
layer's heads and previous-token scores, and the fair experiment's layer-1 row fed X^(1),
recomputed from transformers' output_attentions."""

from __future__ import annotations

import json
import os

os.environ["HF_HUB_OFFLINE"] = "1"  # before transformers is imported: never touch the network
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import numpy as np
import pytest
import torch

from layerwise_core.plans import build_plan
from layerwise_core.storyboard.schema import load_storyboard

from conftest import ROOT

pytestmark = pytest.mark.slow

STORYBOARD = ROOT / "layerwise_templates" / "attention_depth" / "attention_depth.yaml"
TOL = 1e-5          # attention weights of float32 activations: ours and HF's differ by ~1e-7


def test_attention_depth_matches_transformers(minilm_hf, cache_dir):
    model, tok = minilm_hf
    sb = load_storyboard(STORYBOARD)
    d = json.loads(json.dumps(build_plan(sb, cache_dir=cache_dir)))["data"]
    enc = tok(sb.sentences[0])
    tokens = tok.convert_ids_to_tokens(enc["input_ids"])
    assert tokens == d["tokens"]
    f = tokens.index("bank")
    assert d["focus"] == [f]
    special = [i for i, t in enumerate(tokens) if t in tok.all_special_tokens]
    assert special == d["special"]
    with torch.no_grad():
        att = model(input_ids=torch.tensor([enc["input_ids"]]), output_attentions=True).attentions
    att = [a[0].numpy().astype(np.float64) for a in att]                  # [head, q, k]
    print("\nlayer  sink   heaviest other token (MiniLM-L6 via transformers)")
    prev = []
    for l, a in enumerate(att):
        row = a[:, f].mean(axis=0)
        np.testing.assert_allclose(d["layers"][l]["row"], row, atol=TOL)
        assert d["layers"][l]["sink"] == pytest.approx(row[special].sum(), abs=TOL)
        q = np.arange(1, a.shape[1])
        prev.append(a[:, q, q - 1].mean(axis=1))
        j = max((k for k in range(len(row)) if k != f), key=lambda k: row[k])
        print(f"{l:5d}  {row[special].sum():.3f}  {tokens[j]} {row[j]:.3f}")
        assert d["layers"][l]["top"]["pos"] == j
    prev = np.array(prev)
    deep = d["deep"]
    last = len(att) - 1
    np.testing.assert_allclose(deep["prev_token"], prev[last], atol=TOL)
    np.testing.assert_allclose(deep["weight"], att[last][:, f, deep["target"]["pos"]], atol=TOL)
    # the fair experiment fed X^(1) is the model's own layer-1 row
    np.testing.assert_allclose(d["tie"]["new_row"], att[1][:, f].mean(axis=0), atol=TOL)
