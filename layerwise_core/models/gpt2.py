"""GPT-2: Hugging Face config and tensors -> ModelSpec and the TransformerLens layout.

Pre-LN LayerNorm, learned positions, GELU-new, biases everywhere, the unembedding tied to the
embedding. Its `Conv1D` weights are stored [in, out] (x @ W), the transpose of nn.Linear, and
`c_attn` holds Q, K and V side by side ([d, 3 d]).
"""

from __future__ import annotations

import torch

from ..spec import ModelSpec
from .checkpoint import Tensors, expect, f32

PREFIXES = ("transformer.",)
MATMUL = "x @ W"          # Conv1D: addmm(b, x, W); see transformer.MATMULS


def spec_from_config(cfg: dict, name: str, display: str, package: str | None) -> ModelSpec:
    expect(cfg, "activation_function", ("gelu_new",), default="gelu_new")
    for flag in ("scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn"):
        expect(cfg, flag, (False,), default=False)
    expect(cfg, "scale_attn_weights", (True,), default=True)
    d_model, n_heads = cfg["n_embd"], cfg["n_head"]
    return ModelSpec(name=name, display=display, kind="decoder", package=package,
                     n_layers=cfg["n_layer"], n_heads=n_heads, n_kv_heads=n_heads,
                     d_model=d_model, d_head=d_model // n_heads,
                     d_mlp=cfg.get("n_inner") or 4 * d_model, n_ctx=cfg["n_positions"],
                     d_vocab=cfg["vocab_size"], norm="layernorm", norm_placement="pre",
                     rotary=False, gated_mlp=False, act="gelu_new",
                     eps=float(cfg.get("layer_norm_epsilon", 1e-5)), arch="gpt2")


def convert(sd: Tensors, spec: ModelSpec) -> dict[str, torch.Tensor]:
    H, dh, d, m = spec.n_heads, spec.d_head, spec.d_model, spec.d_mlp
    W_E = f32(sd.get("wte.weight", (spec.d_vocab, d)))
    W = {"embed.W_E": W_E, "pos_embed.W_pos": f32(sd.get("wpe.weight", (spec.n_ctx, d))),
         "ln_final.w": f32(sd.get("ln_f.weight", (d,))), "ln_final.b": f32(sd.get("ln_f.bias", (d,))),
         "unembed.W_U": W_E.T, "unembed.b_U": torch.zeros(spec.d_vocab)}
    for l in range(spec.n_layers):
        p, b = f"h.{l}", f"blocks.{l}"
        qkv = sd.get(f"{p}.attn.c_attn.weight", (d, 3 * d))                 # [d, 3d], x @ W
        bias = sd.get(f"{p}.attn.c_attn.bias", (3 * d,))
        for i, X in enumerate("QKV"):
            W[f"{b}.attn.W_{X}"] = f32(qkv[:, i * d:(i + 1) * d].reshape(d, H, dh).permute(1, 0, 2))
            W[f"{b}.attn.b_{X}"] = f32(bias[i * d:(i + 1) * d].reshape(H, dh))
        W[f"{b}.attn.W_O"] = f32(sd.get(f"{p}.attn.c_proj.weight", (d, d)).reshape(H, dh, d))
        W[f"{b}.attn.b_O"] = f32(sd.get(f"{p}.attn.c_proj.bias", (d,)))
        for ln, name in (("ln1", "ln_1"), ("ln2", "ln_2")):
            W[f"{b}.{ln}.w"] = f32(sd.get(f"{p}.{name}.weight", (d,)))
            W[f"{b}.{ln}.b"] = f32(sd.get(f"{p}.{name}.bias", (d,)))
        W[f"{b}.mlp.W_in"] = f32(sd.get(f"{p}.mlp.c_fc.weight", (d, m)))
        W[f"{b}.mlp.b_in"] = f32(sd.get(f"{p}.mlp.c_fc.bias", (m,)))
        W[f"{b}.mlp.W_out"] = f32(sd.get(f"{p}.mlp.c_proj.weight", (m, d)))
        W[f"{b}.mlp.b_out"] = f32(sd.get(f"{p}.mlp.c_proj.bias", (d,)))
    return W
