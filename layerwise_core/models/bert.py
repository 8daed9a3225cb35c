"""BERT (MiniLM-L6, BERT-base alike): Hugging Face config and tensors -> ModelSpec and the
TransformerLens layout `transformer.py` runs. A post-LN encoder:

    resid_mid  = resid_pre + attn(resid_pre)          ln1 = LN(resid_mid)
    resid_post = ln1 + mlp(ln1)                       ln2 = LN(resid_post) = next resid_pre
"""

from __future__ import annotations

import torch

from ..spec import ModelSpec
from .checkpoint import Tensors, expect, f32

# what a checkpoint of a task model (BertForMaskedLM, ...) puts before the encoder's names
PREFIXES = ("bert.",)
MATMUL = "x @ W"          # see transformer.MATMULS


def spec_from_config(cfg: dict, name: str, display: str, package: str | None) -> ModelSpec:
    expect(cfg, "hidden_act", ("gelu",))
    expect(cfg, "position_embedding_type", ("absolute",), default="absolute")
    d_model, n_heads = cfg["hidden_size"], cfg["num_attention_heads"]
    return ModelSpec(name=name, display=display, kind="encoder", package=package,
                     n_layers=cfg["num_hidden_layers"], n_heads=n_heads, n_kv_heads=n_heads,
                     d_model=d_model, d_head=d_model // n_heads, d_mlp=cfg["intermediate_size"],
                     n_ctx=cfg["max_position_embeddings"], d_vocab=cfg["vocab_size"],
                     norm="layernorm", norm_placement="post", rotary=False, gated_mlp=False,
                     act="gelu", eps=float(cfg["layer_norm_eps"]), arch="bert")


def convert(sd: Tensors, spec: ModelSpec) -> dict[str, torch.Tensor]:
    """HF BERT tensors -> TransformerLens names and layouts, float32. `sd` is not changed."""
    H, dh, d = spec.n_heads, spec.d_head, spec.d_model

    def heads_in(w: torch.Tensor) -> torch.Tensor:
        # nn.Linear [H*dh, d] -> x @ W form [d, H*dh] -> [d, H, dh] -> [H, d, dh]
        return f32(w.T.reshape(d, H, dh).permute(1, 0, 2))

    W = {
        "embed.W_E": f32(sd.get("embeddings.word_embeddings.weight", (spec.d_vocab, d))),
        "pos_embed.W_pos": f32(sd.get("embeddings.position_embeddings.weight", (spec.n_ctx, d))),
        "token_type_embed.W_token_type": f32(sd.get("embeddings.token_type_embeddings.weight")),
        "embed_ln.w": f32(sd.get("embeddings.LayerNorm.weight", (d,))),
        "embed_ln.b": f32(sd.get("embeddings.LayerNorm.bias", (d,))),
    }
    for l in range(spec.n_layers):
        p, b = f"encoder.layer.{l}", f"blocks.{l}"
        for X, name in (("Q", "query"), ("K", "key"), ("V", "value")):
            W[f"{b}.attn.W_{X}"] = heads_in(sd.get(f"{p}.attention.self.{name}.weight", (d, d)))
            W[f"{b}.attn.b_{X}"] = f32(sd.get(f"{p}.attention.self.{name}.bias", (d,))
                                       .reshape(H, dh))
        # output dense [d, H*dh] -> z @ W form [H*dh, d] -> [H, dh, d]: head h writes z_h @ W_O[h]
        W[f"{b}.attn.W_O"] = f32(sd.get(f"{p}.attention.output.dense.weight", (d, d))
                                 .T.reshape(H, dh, d))
        W[f"{b}.attn.b_O"] = f32(sd.get(f"{p}.attention.output.dense.bias", (d,)))
        W[f"{b}.ln1.w"] = f32(sd.get(f"{p}.attention.output.LayerNorm.weight", (d,)))
        W[f"{b}.ln1.b"] = f32(sd.get(f"{p}.attention.output.LayerNorm.bias", (d,)))
        W[f"{b}.mlp.W_in"] = f32(sd.get(f"{p}.intermediate.dense.weight", (spec.d_mlp, d)).T)
        W[f"{b}.mlp.b_in"] = f32(sd.get(f"{p}.intermediate.dense.bias", (spec.d_mlp,)))
        W[f"{b}.mlp.W_out"] = f32(sd.get(f"{p}.output.dense.weight", (d, spec.d_mlp)).T)
        W[f"{b}.mlp.b_out"] = f32(sd.get(f"{p}.output.dense.bias", (d,)))
        W[f"{b}.ln2.w"] = f32(sd.get(f"{p}.output.LayerNorm.weight", (d,)))
        W[f"{b}.ln2.b"] = f32(sd.get(f"{p}.output.LayerNorm.bias", (d,)))
    return W
