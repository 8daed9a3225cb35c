"""The one hand-written forward every architecture runs, over TransformerLens-layout weights.

Every loader (a Hugging Face folder, a GGUF, a built-in package) converts its checkpoint into
one dict of float32 tensors named and shaped as TransformerLens does (`embed.W_E` [vocab, d],
`blocks.{l}.attn.W_Q` [head, d_model, d_head], `b_Q` [head, d_head], `W_O` [head, d_head,
d_model], `mlp.W_in` [d_model, d_mlp], `mlp.W_gate`, `mlp.W_out` [d_mlp, d_model], `ln1.w`,
`ln1.b`, `unembed.W_U` [d_model, vocab], ...; zeros where a model has no bias). What differs
between architectures is data in the ModelSpec: the norm (`NORMS`), where it sits (`BLOCKS`,
keyed by the spec's placement), the activation (`ACTS`), RoPE or learned positions, grouped
key/value heads, causal or not. One sentence, float32, no batch dimension, and always the
explicit attention path: scores and the softmax pattern are built here so they can be recorded.

Recording conventions (TransformerLens): per-head tensors are [pos, head, d_head]; `hook_k`,
`hook_v` have n_kv_heads heads, key/value head `spec.kv_head(h)` serving query head h; scores
and patterns are [head, q_pos, k_pos] (a decoder's future is -inf / exactly 0); a norm's
`hook_scale` is the divisor sqrt(var + eps) [pos, 1] and `hook_normalized` includes the gain
(and bias), i.e. it is the sub-layer's actual input. `hook_q`/`hook_k` are taken before RoPE,
`hook_rot_q`/`hook_rot_k` after it (Hugging Face rotate-half: dim i turns with i + d_head/2).
For gated MLPs `mlp.hook_pre` is the gate before its activation, `hook_pre_linear` the up
projection. Post-LN (BERT) re-normalises each sum, so its resid_post != pre + attn + mlp.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F

from ..spec import ModelSpec
from ..tokens import Tokenized
from .base import Recorder, TracedModel
from .text import Text

TOKEN_TYPE = 0  # BERT, one sentence: every token is segment A


def _skip(name: str, t: torch.Tensor) -> torch.Tensor:
    """A recorder that keeps nothing (for `unembed`)."""
    return t


# --- norms ---------------------------------------------------------------------------------

def layer_norm(x, W, name, eps, rec):
    """LayerNorm over d_model, recording the divisor sqrt(var + eps) [pos, 1] and the output."""
    x = x - x.mean(-1, keepdim=True)
    scale = rec(f"{name}.hook_scale", (x.pow(2).mean(-1, keepdim=True) + eps).sqrt())
    return rec(f"{name}.hook_normalized", x / scale * W[f"{name}.w"] + W[f"{name}.b"])


def rms_norm(x, W, name, eps, rec):
    """RMSNorm, multiplying by rsqrt(mean(x^2) + eps) exactly as Hugging Face does (so x / scale
    may differ from the output in the last bit); `hook_scale` is TransformerLens's divisor."""
    var = x.pow(2).mean(-1, keepdim=True) + eps                            # [pos, 1]
    rec(f"{name}.hook_scale", torch.sqrt(var))
    return rec(f"{name}.hook_normalized", W[f"{name}.w"] * (x * torch.rsqrt(var)))


NORMS: dict[str, Callable] = {"layernorm": layer_norm, "rmsnorm": rms_norm}


def gelu_new(x: torch.Tensor) -> torch.Tensor:
    """GPT-2's tanh approximation of GELU, written as Hugging Face's NewGELUActivation."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


ACTS: dict[str, Callable] = {"gelu": F.gelu, "gelu_new": gelu_new, "silu": F.silu}


# --- rotary position embedding -------------------------------------------------------------

def rope_tables(n_pos: int, d_head: int, theta: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin [pos, 1, d_head] (one row per position, broadcast over heads); frequency i
    is shared by dims i and i + d_head/2."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, d_head, 2, dtype=torch.float) / d_head))
    angles = torch.arange(n_pos, dtype=torch.float)[:, None] * inv_freq    # [pos, d_head/2]
    angles = torch.cat([angles, angles], dim=-1)[:, None, :]              # [pos, 1, d_head]
    return angles.cos(), angles.sin()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """x [pos, head, d_head] turned by its position's angles (cos, sin [pos, 1, d_head])."""
    return x * cos + rotate_half(x) * sin


# --- the model -----------------------------------------------------------------------------

# How a checkpoint's own library multiplies, which the forward keeps (so the float32 sums are
# summed in the same order): "x @ W" (BERT as written here, GPT-2's Conv1D) or "linear"
# (nn.Linear: x @ W^T with W stored [out, in]; Llama, Qwen2, Mistral). Each converter module
# names its own (`MATMUL`); the TransformerLens tensors are the same either way.
MATMULS = ("x @ W", "linear")


def linear_forms(W: dict[str, torch.Tensor], n_layers: int) -> dict[str, torch.Tensor]:
    """nn.Linear's [out, in] form of every matrix the forward multiplies by (views when the
    TransformerLens tensors are views of such storage, as the GGUF cache's are: stacking W_Q,
    W_K and W_V into one matrix would copy them from the memory-mapped cache at every load)."""
    out = {}
    for l in range(n_layers):
        b, m = f"blocks.{l}.attn", f"blocks.{l}.mlp"
        for X in "QKV":
            w = W[f"{b}.W_{X}"]                                   # [head, d, d_head]
            out[f"{b}.W_{X}.lin"] = w.permute(0, 2, 1).reshape(-1, w.shape[1]).contiguous()
        w = W[f"{b}.W_O"]                                         # [head, d_head, d]
        out[f"{b}.W_O.lin"] = w.reshape(-1, w.shape[-1]).T.contiguous()     # [d, head*d_head]
        for name in ("W_gate", "W_in", "W_out"):
            if f"{m}.{name}" in W:
                out[f"{m}.{name}.lin"] = W[f"{m}.{name}"].T.contiguous()
    return out


def fused(W: dict[str, torch.Tensor], n_layers: int) -> dict[str, torch.Tensor]:
    """The per-head matrices laid side by side ([d, head * d_head]) for one matmul per
    projection; `attention_weights` still reports the per-head [head, d, d_head] form."""
    out = {}
    for l in range(n_layers):
        b = f"blocks.{l}.attn"
        for X in "QKV":
            w = W[f"{b}.W_{X}"]                                   # [head, d, d_head]
            out[f"{b}.W_{X}.flat"] = w.permute(1, 0, 2).reshape(w.shape[1], -1).contiguous()
            out[f"{b}.b_{X}.flat"] = W[f"{b}.b_{X}"].reshape(-1)
        out[f"{b}.W_O.flat"] = W[f"{b}.W_O"].reshape(-1, W[f"{b}.W_O"].shape[-1])
    return out


def _bias(b: torch.Tensor) -> torch.Tensor | None:
    return b if bool(b.any()) else None            # nn.Linear(bias=False) adds nothing


class Transformer(TracedModel):
    def __init__(self, spec: ModelSpec, weights: dict[str, torch.Tensor], text: Text,
                 source: dict, matmul: str = "x @ W"):
        assert matmul in MATMULS, matmul
        self.spec = spec
        self.W = weights
        self.linear = matmul == "linear"
        extra = linear_forms(weights, spec.n_layers) if self.linear else \
            fused(weights, spec.n_layers)
        self.fast = {**weights, **extra}
        if self.linear:
            for k in [k for k in weights if ".b_" in k and k.startswith("blocks.")]:
                self.fast[k + ".lin"] = _bias(weights[k].reshape(-1))
        self.b_U = _bias(weights["unembed.b_U"]) if "unembed.b_U" in weights else None
        self.text = text
        self._source = dict(source)
        self.norm = NORMS.get(spec.norm)
        self.act = ACTS.get(spec.act)
        self.block = BLOCKS[spec.norm_placement]
        self.causal = spec.kind == "decoder"

    @property
    def source(self) -> dict:
        return dict(self._source)

    def encode(self, sentence: str) -> Tokenized:
        return self.text.encode(sentence)

    def token_string(self, token_id: int) -> str:
        return self.text.token_string(token_id)

    # --- forward ---
    @torch.inference_mode()
    def forward(self, ids: list[int], rec: Recorder) -> None:
        W, n, s = self.fast, len(ids), self.spec
        tok = torch.tensor(ids, dtype=torch.long)
        x = rec("hook_embed", W["embed.W_E"][tok])                        # [pos, d_model]
        if "pos_embed.W_pos" in W:                                        # learned positions
            x = x + rec("hook_pos_embed", W["pos_embed.W_pos"][:n])
        if "token_type_embed.W_token_type" in W:                          # BERT's segments
            x = x + rec("hook_token_type_embed",
                        W["token_type_embed.W_token_type"][TOKEN_TYPE].expand(n, -1))
        if "embed_ln.w" in W:                                             # BERT's embedding LN
            x = self.norm(x, W, "embed_ln", s.eps, rec)
        # made once per pass, read by every layer: RoPE's angles, a decoder's future keys
        rope = rope_tables(n, s.d_head, s.rope_theta) if s.rotary else None
        future = torch.ones(n, n, dtype=torch.bool).triu(diagonal=1) if self.causal else None
        for l in range(s.n_layers):
            x = self.block(self, x, l, rope, future, rec)
        if "unembed.W_U" in W:
            rec("logits", self._logits(self.norm(x, W, "ln_final", s.eps, rec)))

    def _logits(self, x: torch.Tensor) -> torch.Tensor:
        logits = x @ self.W["unembed.W_U"]                                 # [pos, vocab]
        return logits if self.b_U is None else logits + self.b_U

    def attention(self, x, l, rope, future, rec) -> torch.Tensor:
        W, s, b, n = self.fast, self.spec, f"blocks.{l}", x.shape[0]
        H, G, kv, dh = s.n_heads, s.group_size, s.n_kv_heads, s.d_head
        # q = einsum("pd,hde->phe", x, W_Q) + b_Q, and K and V alike, as one matmul each with
        # every head side by side (nn.Linear's q_proj, k_proj, v_proj, or x @ W + b)
        if self.linear:
            q, k, v = (F.linear(x, W[f"{b}.attn.W_{X}.lin"], W[f"{b}.attn.b_{X}.lin"])
                       for X in "QKV")
        else:
            q, k, v = (torch.addmm(W[f"{b}.attn.b_{X}.flat"], x, W[f"{b}.attn.W_{X}.flat"])
                       for X in "QKV")
        q = rec(f"{b}.attn.hook_q", q.view(n, H, dh))                     # [pos, head, d_head]
        k = rec(f"{b}.attn.hook_k", k.view(n, kv, dh))
        v = rec(f"{b}.attn.hook_v", v.view(n, kv, dh))
        if rope is not None:
            q = rec(f"{b}.attn.hook_rot_q", apply_rope(q, *rope))
            k = rec(f"{b}.attn.hook_rot_k", apply_rope(k, *rope))
        q, k, v = q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1)  # [head, pos, d_head]
        # key/value head kv_head(h) = h // G serves query heads h: the G query heads of one
        # key/value head are stacked as rows of one matmul, [kv_head, G * pos, d_head], so K
        # and V are never copied G times
        scores = torch.matmul(q.reshape(kv, G * n, dh), k.transpose(1, 2))
        scores = scores.view(H, n, n) / math.sqrt(dh)                         # [head, q, k]
        if future is not None:
            scores = scores.masked_fill(future, float("-inf"))
        scores = rec(f"{b}.attn.hook_attn_scores", scores)
        pattern = rec(f"{b}.attn.hook_pattern", torch.softmax(scores, dim=-1))
        z = torch.matmul(pattern.view(kv, G * n, n), v).view(H, n, dh)
        z = rec(f"{b}.attn.hook_z", z.transpose(0, 1))                       # [pos, head, dh]
        # each head writes z_h @ W_O[h] into the stream; the output dense is their sum plus b_O
        if self.linear:
            out = F.linear(z.reshape(n, -1), W[f"{b}.attn.W_O.lin"], W[f"{b}.attn.b_O.lin"])
        else:
            out = torch.addmm(W[f"{b}.attn.b_O"], z.reshape(n, -1), W[f"{b}.attn.W_O.flat"])
        return rec(f"{b}.hook_attn_out", out)

    def mlp(self, x, l, rec) -> torch.Tensor:
        W, m = self.fast, f"blocks.{l}.mlp"

        def mul(v: torch.Tensor, name: str, bias: str | None) -> torch.Tensor:
            if self.linear:
                return F.linear(v, W[f"{m}.{name}.lin"], W[f"{m}.{bias}.lin"] if bias else None)
            out = v @ W[f"{m}.{name}"]
            return out + W[f"{m}.{bias}"] if bias else out

        if self.spec.gated_mlp:     # SwiGLU: act(x W_gate) * (x W_in)
            pre = rec(f"{m}.hook_pre", mul(x, "W_gate", None))
            lin = rec(f"{m}.hook_pre_linear", mul(x, "W_in", "b_in"))
            post = rec(f"{m}.hook_post", self.act(pre) * lin)
        else:
            pre = rec(f"{m}.hook_pre", mul(x, "W_in", "b_in"))
            post = rec(f"{m}.hook_post", self.act(pre))
        return rec(f"blocks.{l}.hook_mlp_out", mul(post, "W_out", "b_out"))

    @torch.inference_mode()
    def unembed(self, resid: np.ndarray) -> np.ndarray:
        """Logits [..., vocab] of streams [..., d_model]: each vector through the final norm
        with its own statistics, then the unembedding."""
        if "unembed.W_U" not in self.W:
            return super().unembed(resid)
        x = torch.from_numpy(np.ascontiguousarray(resid, dtype=np.float32))
        return self._logits(self.norm(x, self.W, "ln_final", self.spec.eps, _skip)).numpy()

    def attention_weights(self) -> dict[str, np.ndarray]:
        """TransformerLens layout (q = x @ W_Q + b_Q), and every norm's gain (and bias)."""
        keep = (".attn.", ".ln1.", ".ln2.", "embed_ln.", "ln_final.")
        return {k: v.numpy().astype(np.float32, copy=True)
                for k, v in self.W.items() if any(s in k for s in keep)}


# --- blocks, one per placement -------------------------------------------------------------

def post_ln_block(m: Transformer, x, l, rope, future, rec):
    """BERT: add, then normalise the sum (so the next layer reads a normalised stream)."""
    b, eps = f"blocks.{l}", m.spec.eps
    x = rec(f"{b}.hook_resid_pre", x)
    x = rec(f"{b}.hook_resid_mid", x + m.attention(x, l, rope, future, rec))
    x = m.norm(x, m.fast, f"{b}.ln1", eps, rec)
    x = rec(f"{b}.hook_resid_post", x + m.mlp(x, l, rec))
    return m.norm(x, m.fast, f"{b}.ln2", eps, rec)


def pre_norm_block(m: Transformer, x, l, rope, future, rec):
    """GPT-2, Llama, Qwen2, Mistral: normalise each sub-layer's input; the stream only adds."""
    b, eps = f"blocks.{l}", m.spec.eps
    x = rec(f"{b}.hook_resid_pre", x)
    x = rec(f"{b}.hook_resid_mid",
            x + m.attention(m.norm(x, m.fast, f"{b}.ln1", eps, rec), l, rope, future, rec))
    return rec(f"{b}.hook_resid_post", x + m.mlp(m.norm(x, m.fast, f"{b}.ln2", eps, rec), l, rec))


BLOCKS: dict[str, Callable] = {"post": post_ln_block, "pre": pre_norm_block}
