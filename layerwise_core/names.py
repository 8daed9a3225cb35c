"""Canonical activation names (TransformerLens style) and how each is written on screen.

One place holds both, so storyboards, traces and scenes cannot drift apart. A storyboard names a
vector by its short name (`q`, `ln_x`, ...); `hook_name` turns that into the trace key.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Vector:
    short: str          # storyboard name
    hook: str           # template, `{l}` is the layer
    math: str           # Typst math for the on-screen label, `{l}` layer, `{h}` head
    per_head: bool      # the array is [pos, head, d_head]
    description: str


VECTORS: dict[str, Vector] = {v.short: v for v in [
    Vector("x", "blocks.{l}.hook_resid_pre", "X^({l})", False, "residual stream entering layer l"),
    Vector("ln_x", "blocks.{l}.ln1.hook_normalized", "\"LN\"(X^({l}))", False,
           "normalised input to attention (pre-norm models)"),
    Vector("q", "blocks.{l}.attn.hook_q", "Q^({l},{h})", True, "queries, fresh at every layer"),
    Vector("k", "blocks.{l}.attn.hook_k", "K^({l},{h})", True, "keys"),
    Vector("v", "blocks.{l}.attn.hook_v", "V^({l},{h})", True, "values"),
    Vector("rot_q", "blocks.{l}.attn.hook_rot_q", "tilde(Q)^({l},{h})", True, "queries after RoPE"),
    Vector("rot_k", "blocks.{l}.attn.hook_rot_k", "tilde(K)^({l},{h})", True, "keys after RoPE"),
    Vector("scores", "blocks.{l}.attn.hook_attn_scores", "S^({l},{h})", False, "scaled q.k scores"),
    Vector("pattern", "blocks.{l}.attn.hook_pattern", "A^({l},{h})", False, "attention pattern"),
    Vector("z", "blocks.{l}.attn.hook_z", "Z^({l},{h})", True, "pattern-weighted values"),
    Vector("attn_out", "blocks.{l}.hook_attn_out", "Delta_\"attn\"^({l})", False,
           "attention output added to the stream"),
    Vector("resid_mid", "blocks.{l}.hook_resid_mid", "X_\"mid\"^({l})", False,
           "stream after the attention add"),
    Vector("mlp_out", "blocks.{l}.hook_mlp_out", "Delta_\"FFN\"^({l})", False,
           "FFN output added to the stream"),
    Vector("resid_post", "blocks.{l}.hook_resid_post", "X^({l}+1)", False, "stream leaving layer l"),
    Vector("lens", "lens.resid_post", "\"lens\"^({l})", False, "logit lens of the stream"),
]}


def hook_name(short: str, layer: int) -> str:
    """Trace key of a storyboard vector at `layer`: hook_name("q", 3) == "blocks.3.attn.hook_q"."""
    return VECTORS[short].hook.format(l=layer)


def math_label(short: str, layer: int, head: int | None = None) -> str:
    """Typst math for a vector's label; per-head vectors without a head drop the head index."""
    text = VECTORS[short].math
    if head is None:
        text = text.replace(",{h}", "")
    return text.format(l=layer, h=head)


def block_hooks(layer: int, *, norm_placement: str, rotary: bool, gated_mlp: bool) -> list[str]:
    """Ordered hook names recorded by one block, in the order of the placement's groups."""
    from .spec import PLACEMENTS

    b = f"blocks.{layer}"
    attn = [f"{b}.attn.hook_q", f"{b}.attn.hook_k", f"{b}.attn.hook_v"]
    groups = {
        "resid_pre": [f"{b}.hook_resid_pre"], "resid_mid": [f"{b}.hook_resid_mid"],
        "resid_post": [f"{b}.hook_resid_post"],
        "ln1": [f"{b}.ln1.hook_scale", f"{b}.ln1.hook_normalized"],
        "ln2": [f"{b}.ln2.hook_scale", f"{b}.ln2.hook_normalized"],
        "qkv": attn, "attn_out": [f"{b}.hook_attn_out"],
        "attn": attn + ([f"{b}.attn.hook_rot_q", f"{b}.attn.hook_rot_k"] if rotary else [])
        + [f"{b}.attn.hook_attn_scores", f"{b}.attn.hook_pattern", f"{b}.attn.hook_z",
           f"{b}.hook_attn_out"],
        "mlp": [f"{b}.mlp.hook_pre"] + ([f"{b}.mlp.hook_pre_linear"] if gated_mlp else [])
        + [f"{b}.mlp.hook_post", f"{b}.hook_mlp_out"],
    }
    return [h for g in PLACEMENTS[norm_placement].block_order for h in groups[g]]
