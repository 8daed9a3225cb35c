"""Llama-shaped decoders (Llama, Qwen2, Mistral; SmolLM2 is a Llama): Hugging Face config and
tensors -> ModelSpec and the TransformerLens layout `transformer.py` runs.

One block (pre-norm; x is the residual stream, [pos, d_model]):

    h = RMSNorm1(x);  q, k, v = h W_Q + b_Q, h W_K + b_K, h W_V + b_V;  q, k = RoPE(q), RoPE(k)
    x = x + softmax(q k^T / sqrt(d_head) + causal mask) v W_O      grouped-query attention
    h = RMSNorm2(x);  x = x + (silu(h W_gate) * (h W_in)) W_out        SwiGLU
and at the end logits = RMSNorm_final(x) W_U (W_U = W_E^T when the embedding is tied).
Qwen2 has q/k/v biases; Llama and Mistral have none (zeros here, as in TransformerLens).
A GGUF's tensors are renamed to these names by `gguf_weights` and converted here too.
"""

from __future__ import annotations

import torch

from ..spec import ModelSpec
from ..errors import ModelFileError
from .checkpoint import Tensors, expect, f32, refuse

PREFIXES = ()
MATMUL = "linear"         # nn.Linear; see transformer.MATMULS


def spec_from_config(cfg: dict, name: str, display: str, package: str | None) -> ModelSpec:
    arch = cfg.get("model_type", "llama")
    expect(cfg, "hidden_act", ("silu",), default="silu")
    rope = cfg.get("rope_parameters") or cfg.get("rope_scaling") or {}
    if not isinstance(rope, dict) or rope.get("rope_type", rope.get("type", "default")) != "default":
        raise ModelFileError(f"{cfg.get('_path', 'config.json')}: RoPE {rope!r} is not supported "
                             "(only the default rotary embedding, no scaling)")
    theta = float(cfg.get("rope_theta") or rope.get("rope_theta") or 10000.0)
    refuse(cfg, "mlp_bias", "MLP biases")
    d_model, n_heads = cfg["hidden_size"], cfg["num_attention_heads"]
    n_ctx = cfg["max_position_embeddings"]
    window = cfg.get("sliding_window") if cfg.get("use_sliding_window", arch == "mistral") else None
    if window:                # beyond the window Mistral's attention is banded: stop before it
        n_ctx = min(n_ctx, int(window))
    return ModelSpec(name=name, display=display, kind="decoder", package=package,
                     n_layers=cfg["num_hidden_layers"], n_heads=n_heads,
                     n_kv_heads=cfg.get("num_key_value_heads") or n_heads, d_model=d_model,
                     d_head=cfg.get("head_dim") or d_model // n_heads,
                     d_mlp=cfg["intermediate_size"], n_ctx=n_ctx, d_vocab=cfg["vocab_size"],
                     norm="rmsnorm", norm_placement="pre", rotary=True, gated_mlp=True,
                     act="silu", eps=float(cfg["rms_norm_eps"]),
                     rope_theta=theta, arch=arch)


def convert(sd: Tensors, spec: ModelSpec) -> dict[str, torch.Tensor]:
    H, K, dh, d, m = spec.n_heads, spec.n_kv_heads, spec.d_head, spec.d_model, spec.d_mlp
    W_E = f32(sd.get("model.embed_tokens.weight", (spec.d_vocab, d)))
    # W_U [d, vocab] is a view of lm_head's [vocab, d] storage, as W_E.T is when tied: the
    # logits are the same nn.Linear product `transformers` computes (x @ W^T), not x @ a copy
    W_U = f32(sd.get("lm_head.weight", (spec.d_vocab, d))).T if "lm_head.weight" in sd else W_E.T
    W = {"embed.W_E": W_E, "ln_final.w": f32(sd.get("model.norm.weight", (d,))),
         "unembed.W_U": W_U, "unembed.b_U": torch.zeros(spec.d_vocab)}
    for l in range(spec.n_layers):
        p, b = f"model.layers.{l}", f"blocks.{l}"
        for X, proj, heads in (("Q", "q_proj", H), ("K", "k_proj", K), ("V", "v_proj", K)):
            w = sd.get(f"{p}.self_attn.{proj}.weight", (heads * dh, d))     # nn.Linear [out, in]
            W[f"{b}.attn.W_{X}"] = f32(w.reshape(heads, dh, d).transpose(1, 2))   # [h, d, dh]
            bias = f"{p}.self_attn.{proj}.bias"
            W[f"{b}.attn.b_{X}"] = (f32(sd.get(bias, (heads * dh,)).reshape(heads, dh))
                                    if bias in sd else torch.zeros(heads, dh))
        # o_proj [d, H*dh]: z @ W form [H*dh, d] -> [H, dh, d]
        W[f"{b}.attn.W_O"] = f32(sd.get(f"{p}.self_attn.o_proj.weight", (d, H * dh))
                                 .T.reshape(H, dh, d))
        o_bias = f"{p}.self_attn.o_proj.bias"
        W[f"{b}.attn.b_O"] = f32(sd.get(o_bias, (d,))) if o_bias in sd else torch.zeros(d)
        W[f"{b}.ln1.w"] = f32(sd.get(f"{p}.input_layernorm.weight", (d,)))
        W[f"{b}.ln2.w"] = f32(sd.get(f"{p}.post_attention_layernorm.weight", (d,)))
        W[f"{b}.mlp.W_gate"] = f32(sd.get(f"{p}.mlp.gate_proj.weight", (m, d)).T)  # [d, d_mlp]
        W[f"{b}.mlp.W_in"] = f32(sd.get(f"{p}.mlp.up_proj.weight", (m, d)).T)
        W[f"{b}.mlp.b_in"] = torch.zeros(m)
        W[f"{b}.mlp.W_out"] = f32(sd.get(f"{p}.mlp.down_proj.weight", (d, m)).T)  # [d_mlp, d]
        W[f"{b}.mlp.b_out"] = torch.zeros(d)
    return W
