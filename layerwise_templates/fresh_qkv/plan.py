"""Plan data for "a whole layer, then the next": per layer, one word's X^(l) as a few numbers,
where its normalisation sits, this layer's own W_Q, W_K, W_V meeting it (a few real entries), the
Q, K, V it produces (a few entries of one head, equal to in(X) W + b from the trace) and the
layer's update to X (attention add, renormalisation, FFN add, renormalisation).

Per layer l (the focus word's tokens averaged; `SHOW` input dims, `OUT` output dims of `HEAD`):
  x_first, x_norm       X^(l)[:SHOW] and |X^(l)|; x: the whole vector scaled for a strip
  norm                  where the normalisation sits (norm_step)
  W_Q/W_K/W_V           rows 0..SHOW-1, columns 0..OUT-1 of head HEAD (raw weights)
  q/k/v                 trace Q/K/V^(l)[HEAD][:OUT]; redo_q/k/v the same from in(X) W + b
  identity              max |trace - (in(X) W + b)| over every token, head and dim
                        (recompute_check; data.check says what the check covered, its
                        fixed bound and `largest`, the decade the largest gap stays under)
  update                the sizes of every step from X^(l) to X^(l+1), and X^(l+1)[:SHOW];
                        stages: the block diagram's nodes (state, update, sum, norm) in order,
                        each with its length and first SHOW numbers
A focus word of several tokens: every per-layer vector is the mean over its tokens (one
definition everywhere; focus.averaged says so and the scene says it on screen). The "new X or
new W" experiment is cut (docs/chapter.md 4.3: it compared unrelated heads across layers).
"""

from __future__ import annotations

import math

import numpy as np

from layerwise_core.analysis.qkv_causes import project
from layerwise_core.analysis.robust import error_bound, robust_limit, scaled
from layerwise_core.analysis.similarity import angle_deg, cosine
from layerwise_core.analysis.vectors import attn_input, content_words, positions
from layerwise_core.storyboard.schema import Storyboard
from layerwise_core.trace import Trace

SHOW = 3        # input dims shown as numbers (of d_model)
OUT = 3         # output dims of Q, K, V shown as numbers (of d_head)
HEAD = 0        # the head whose numbers are shown
# The recompute check's shown bound: max |model - (in(X) W + b)| over every token, head and entry.
# Worst seen (ATEN_CPU_CAPABILITY=default|avx2|avx512, OMP_NUM_THREADS=1|2): MiniLM-L6 4.9e-6
# (|q| up to 7), SmolLM2-135M 1.16e-5 on "The capital of France is" (|q| up to 19; 2 threads
# sum its 576-term dots in another order). Relative to each entry's sum of |x_i w_i|: at most
# 9.5e-7. 1e-4 is a fixed bound ~9x above the worst seen, the same on every machine.
RECOMPUTE_TOLERANCE = 1e-4
# The largest gap measured is shown as the power of ten it stays under with a margin of 2
# (MiniLM-L6's 4.9e-6 -> 1e-5; SmolLM2's 1.16e-5 -> 1e-4): float noise moves the gap by far less
# than 2x, so the shown decade is the same on every machine.
LARGEST_MARGIN = 2.0
QKV = ("q", "k", "v")


def decade_above(gap: float, margin: float = LARGEST_MARGIN) -> float:
    """The smallest power of ten at or above `margin` x `gap` (1e-12 for no gap at all)."""
    return 10.0 ** math.ceil(math.log10(max(margin * float(gap), 1e-12)))


def focus_rows(a: np.ndarray, pos: list[int]) -> np.ndarray:
    """The focus word's row of a [pos, ...] array, averaged over its tokens (float64)."""
    return np.asarray(a, np.float64)[pos].mean(axis=0)


def norm_step(trace: Trace, layer: int, pos: list[int]) -> dict:
    """Where the normalisation before W_Q sits, what it normalises and its divisor sigma."""
    placement = trace.spec.placement
    if placement.norm_before_q == "previous":     # post-LN: the last layer's LN fed this one
        if layer == 0:
            before = sum(trace[h] for h in ("hook_embed", "hook_pos_embed",
                                            "hook_token_type_embed") if h in trace)
            seg = "hook_token_type_embed" in trace
            site, label = "embed_ln", ("token, position and token-type embeddings"
                                       if seg else
                                       "token and position embeddings")
        else:
            before = trace[f"blocks.{layer - 1}.hook_resid_post"]
            site, label = f"blocks.{layer - 1}.ln2", f"layer {layer - 1}'s sum after its FFN add"
        after = trace[f"blocks.{layer}.hook_resid_pre"]
    elif placement.norm_before_q == "own":         # pre-norm: ln1 of this layer
        before = trace[f"blocks.{layer}.hook_resid_pre"]
        site, label = f"blocks.{layer}.ln1", f"X entering layer {layer}"
        after = trace[f"blocks.{layer}.ln1.hook_normalized"]
    else:                                   # the toy: no normalisation at all
        x = focus_rows(trace[f"blocks.{layer}.hook_resid_pre"], pos)
        return {"placement": placement.name, "site": None, "label": "no normalisation",
                "sigma": None, "norm_before": float(np.linalg.norm(x)),
                "norm_after": float(np.linalg.norm(x))}
    b, a = focus_rows(before, pos), focus_rows(after, pos)
    sigma = float(focus_rows(trace[f"{site}.hook_scale"], pos)[0])
    # the input centred and divided by its spread, before the gain and bias: ~sqrt(d_model) long
    return {"placement": placement.name, "site": site, "label": label, "sigma": sigma,
            "norm_before": float(np.linalg.norm(b)), "norm_after": float(np.linalg.norm(a)),
            "centred_length": float(np.linalg.norm((b - b.mean()) / sigma))}


def update_steps(trace: Trace, layer: int, pos: list[int], W=None) -> dict:
    """|.| of every state from X^(l) to X^(l+1) for the focus word, and X^(l+1)[:SHOW]; with
    the weights `W`, each LayerNorm's first SHOW gains and biases."""
    placement = trace.spec.placement
    b = f"blocks.{layer}"
    hooks = {"x": f"{b}.hook_resid_pre", "d_attn": f"{b}.hook_attn_out",
             "mid": f"{b}.hook_resid_mid", "d_ffn": f"{b}.hook_mlp_out",
             "post": f"{b}.hook_resid_post"}
    hooks.update({key: hook.format(l=layer) for key, hook in placement.renormed})
    hooks = {k: h for k, h in hooks.items() if h in trace}
    vec = {k: focus_rows(trace[h], pos) for k, h in hooks.items()}
    nxt = vec.get("ln2", vec.get("post"))
    # the diagram's nodes in order: the states on the stream, the updates added to it, and (post-LN)
    # the LayerNorm after each add; each with its length and first SHOW numbers
    order = [("x", "state"), ("d_attn", "update"), ("mid", "sum"), ("ln1", "norm"),
             ("d_ffn", "update"), ("post", "sum"), ("ln2", "norm")]
    stages = [{"key": k, "kind": kind, "length": float(np.linalg.norm(vec[k])),
               "first": vec[k][:SHOW].tolist()} for k, kind in order if k in vec]
    # post-LN: each LayerNorm's input centred and divided by its spread, before the learned gain
    # and bias (the length of that is ~sqrt(d_model)); the scene shows it between sum and LN
    centred = []
    for k, src in (("ln1", "mid"), ("ln2", "post")):
        scale = f"{b}.{k}.hook_scale"
        if k in vec and src in vec and scale in trace:
            spread = focus_rows(trace[scale], pos)[0]
            z = (vec[src] - vec[src].mean()) / spread
            ln = {part: np.asarray(W[f"{b}.{k}.{part}"], np.float64)[:SHOW].tolist()
                  if W is not None and f"{b}.{k}.{part}" in W else [] for part in "wb"}
            centred.append({"key": k, "kind": "centred", "length": float(np.linalg.norm(z)),
                            "first": z[:SHOW].tolist(), "mean": float(vec[src].mean()),
                            "spread": float(spread), "gain": ln["w"], "bias": ln["b"]})
    return {"placement": placement.name, "stages": stages, "centred": centred,
            "norms": {k: float(np.linalg.norm(v)) for k, v in vec.items()},
            "x_next_first": nxt[:SHOW].tolist(), "x_next_norm": float(np.linalg.norm(nxt)),
            "cos_x_next": float(cosine(nxt, vec["x"]))}


def recompute_check(trace: Trace, W, layer: int) -> dict:
    """Q, K, V of every token and every head at `layer` redone as in(X) W + b in float64 and
    compared with the model's own: the largest |gap| of each, and the shape the check covered
    (read from the model's arrays, so the plan says what "every" was)."""
    inp = np.asarray(attn_input(trace, layer), np.float64)                 # [pos, d_model]
    gap, shape = {}, {}
    for k in QKV:
        model = np.asarray(trace[f"blocks.{layer}.attn.hook_{k}"], np.float64)  # [pos, head, e]
        gap[k] = float(np.abs(project(inp, W, layer, k.upper()) - model).max())
        shape[k] = model.shape
    return {"gap": gap, "tokens": int(shape["q"][0]), "heads": int(shape["q"][1]),
            "kv_heads": int(shape["k"][1]), "entries": int(shape["q"][2]),
            "values": int(sum(np.prod(s) for s in shape.values()))}


def has_bias(W, layer: int) -> bool:
    """Whether layer `layer` adds a nonzero bias to Q, K or V (MiniLM does; SmolLM2 does not)."""
    return any(f"blocks.{layer}.attn.b_{K}" in W
               and float(np.abs(np.asarray(W[f"blocks.{layer}.attn.b_{K}"])).max()) > 0
               for K in "QKV")


def context_pick(trace: Trace, pos: list[int], layer: int = 0) -> dict:
    """Where the focus word's attention went in `layer`, averaged over its heads (and over the
    focus word's tokens): the plan's pick is the other word it gave the most (a word's weight
    the sum over its tokens: one word however the tokenizer splits it), among the sentence's
    words proper (`content_words`: not the focus word, not punctuation, not [CLS]/[SEP]).
    `token` is that word as written, `position` its first token, `positions` all of them;
    `weights` stays per token (key position)."""
    p = np.asarray(trace[f"blocks.{layer}.attn.hook_pattern"], np.float64)   # [head, q, k]
    row = p[:, pos, :].mean(axis=(0, 1))
    words = content_words(trace, set(pos))
    if words:
        best = max(words, key=lambda w: float(row[w["positions"]].sum()))
        word, at = best["word"], best["positions"]
    else:
        j = int(np.argmax(row))
        word, at = trace.tokens[j], [j]
    return {"layer": layer, "heads": int(p.shape[0]), "token": word,
            "position": int(at[0]), "positions": [int(i) for i in at],
            "weight": float(row[at].sum()), "own": float(row[pos].sum()), "weights": row.tolist()}


def build(sb: Storyboard, traces: list[Trace]) -> dict:
    t = traces[0]
    W = t.weights()
    spec = t.spec
    pos = positions(t, sb.focus[0])
    layers = list(sb.layers)
    xs = {l: focus_rows(t[f"blocks.{l}.hook_resid_pre"], pos) for l in layers}
    x_limit = robust_limit(np.stack(list(xs.values())))
    out, checks = [], []
    for l in layers:
        checks.append(recompute_check(t, W, l))
        inp = focus_rows(attn_input(t, l), pos)
        row = {"layer": l, "x_first": xs[l][:SHOW].tolist(), "x_norm": float(np.linalg.norm(xs[l])),
               "x": scaled(xs[l], x_limit), "in_first": inp[:SHOW].tolist(),
               "norm": norm_step(t, l, pos),
               # this layer's attention from the focus word, mean over heads: the word it took
               # most from (what attention's update brought in)
               "context": context_pick(t, pos, l),
               "identity": checks[-1]["gap"],
               "update": update_steps(t, l, pos, W) if spec.placement.mlp_in else None}
        row["identity_max"] = max(row["identity"].values())
        row["bias"] = has_bias(W, l)
        row["identity_bound"] = {k: error_bound(v, RECOMPUTE_TOLERANCE)
                                 for k, v in row["identity"].items()}
        for k in QKV:
            K = k.upper()
            hk = min(HEAD, np.asarray(W[f"blocks.{l}.attn.W_{K}"]).shape[0] - 1)
            row[f"W_{K}"] = np.asarray(W[f"blocks.{l}.attn.W_{K}"], np.float64)[
                hk, :SHOW, :OUT].tolist()
            bk = f"blocks.{l}.attn.b_{K}"
            row[f"b_{K}"] = (np.asarray(W[bk], np.float64).reshape(-1, np.asarray(
                W[f"blocks.{l}.attn.W_{K}"]).shape[-1])[hk, :OUT].tolist() if bk in W
                else [0.0] * OUT)
            full = focus_rows(t[f"blocks.{l}.attn.hook_{k}"], pos)[hk]
            row[k] = full[:OUT].tolist()
            redo = project(attn_input(t, l), W, l, K)
            row[f"redo_{k}"] = focus_rows(redo, pos)[hk][:OUT].tolist()
        # the split: this layer's input through the layer before's query matrix and bias
        # (new X, old matrix), beside that layer's own query (old X, old matrix); head HEAD.
        # Like with like: both live in layer l-1's query space (layer l's is another space)
        if l - 1 in layers:
            hq = min(HEAD, np.asarray(W[f"blocks.{l - 1}.attn.W_Q"]).shape[0] - 1)
            mixed = focus_rows(project(attn_input(t, l), W, l - 1, "Q"), pos)[hq]
            old = focus_rows(t[f"blocks.{l - 1}.attn.hook_q"], pos)[hq]
            # the matrices are new too: layer l's W_Q against layer l-1's, as lists of
            # numbers (head HEAD's block of each; and the largest |cos| over every pair of
            # heads, since head numbers mean nothing across layers)
            wn = np.asarray(W[f"blocks.{l}.attn.W_Q"], np.float64)
            wo = np.asarray(W[f"blocks.{l - 1}.attn.W_Q"], np.float64)
            hn = min(HEAD, wn.shape[0] - 1)
            grid = [[float(cosine(wn[a].ravel(), wo[b].ravel())) for b in range(wo.shape[0])]
                    for a in range(wn.shape[0])]
            pairs = [abs(c) for row_ in grid for c in row_]
            row["q_mixed"] = {"first": mixed[:OUT].tolist(),
                              "cos_old": float(cosine(mixed, old)),
                              "entries": int(mixed.shape[-1]),
                              "w_cos_max": max(pairs),
                              # how many pairs w_cos_max is the largest of (said: "all 144")
                              "w_pairs": len(pairs),
                              # every pair's cosine, signed: row a is layer l's head a, column
                              # b layer l-1's head b (the scene draws each pair as a cell)
                              "w_cos_all": grid,
                              "w_numbers": int(wn[hn].size)}
            # the same test on the key and the value (head HEAD, or the KV head it reads):
            # the layer before's W_K, W_V and biases given this layer's input, against the key
            # and value that layer made from its own input
            kv = {}
            for k in ("k", "v"):
                K = k.upper()
                hk = min(HEAD, np.asarray(W[f"blocks.{l - 1}.attn.W_{K}"]).shape[0] - 1)
                m = focus_rows(project(attn_input(t, l), W, l - 1, K), pos)[hk]
                o = focus_rows(t[f"blocks.{l - 1}.attn.hook_{k}"], pos)[hk]
                kv[k] = float(cosine(m, o))
            row["kv_mixed"] = kv
        else:
            row["q_mixed"] = None
            row["kv_mixed"] = None
        out.append(row)
    post = bool(out[-1]["update"]) and "ln2" in out[-1]["update"]["norms"]
    gap = max(r["identity_max"] for r in out)
    return {"focus": {"word": sb.focus[0], "positions": pos,
                      "tokens": [t.tokens[p] for p in pos], "averaged": len(pos) > 1},
            "tokens": t.tokens,
            "model": spec.display,
            "norm": {"kind": spec.norm, "placement": spec.norm_placement},
            "shape": {"n_heads": spec.n_heads, "n_kv_heads": spec.n_kv_heads,
                      "d_model": spec.d_model, "d_head": spec.d_head,
                      "d_mlp": spec.d_mlp},
            "show": {"dims": SHOW, "out": OUT, "head": HEAD},
            "x_limit": x_limit,
            # |X^(l)| for every state the layers read and the last one writes: X^(first)..X^(last+1)
            "x_lengths": [r["x_norm"] for r in out]
            + ([out[-1]["update"]["x_next_norm"]] if out[-1]["update"] else []),
            # |the sum a LayerNorm read| for each state after the first (post-LN only)
            "pre_ln_lengths": [r["update"]["norms"]["post"] for r in out] if post else [],
            # post-LN, per state X^(first)..X^(last+1): the length of the sum its LayerNorm read,
            # and of that sum centred and divided by its spread (the length LayerNorm fixes,
            # ~sqrt(d_model)) before the learned gain and bias
            "ln_input_lengths": ([out[0]["norm"]["norm_before"]]
                                 + [r["update"]["norms"]["post"] for r in out]) if post else [],
            "std_lengths": ([out[0]["norm"]["centred_length"]]
                            + [c["length"] for r in out for c in r["update"]["centred"]
                               if c["key"] == "ln2"]) if post else [],
            # cos(X^(l), X^(l+1)) for every layer: 1 would be the same direction
            "cos_steps": [r["update"]["cos_x_next"] for r in out] if out[-1]["update"] else [],
            # the same steps as angles in degrees (the sweep's sketch turns by these)
            "angle_steps": [angle_deg(c)
                            for c in (r["update"]["cos_x_next"] for r in out)]
            if out[-1]["update"] else [],
            # per layer after the first: the new-X test's cosine (layer l-1's W_Q given X^(l),
            # against Q^(l-1), head HEAD): layer l's `q_mixed.cos_old`, as one list
            "q_old_cos": [r["q_mixed"]["cos_old"] for r in out if r.get("q_mixed")],
            # the recompute check: what it covered, in every layer, and its bound
            "check": {"tokens": checks[0]["tokens"], "heads": checks[0]["heads"],
                      "kv_heads": checks[0]["kv_heads"], "entries": checks[0]["entries"],
                      "layers": len(out), "values": sum(c["values"] for c in checks),
                      "bound": error_bound(gap, RECOMPUTE_TOLERANCE),
                      # the largest gap measured, as the power of ten it stays under
                      "largest": error_bound(gap, decade_above(gap))},
            "layers": out}
