"""A GGUF file (llama.cpp) -> Hugging Face-named float32 tensors, config and tokenizer, and the
checksummed float32 cache of the TransformerLens-layout weights made from them.

The architecture comes from the metadata (`general.architecture`: `llama`, which Mistral GGUFs
use too, or `qwen2`); its numbers are read into a Hugging Face config dict, the tensors are
renamed to the Hugging Face checkpoint's names (`blk.3.attn_q.weight` ->
`model.layers.3.self_attn.q_proj.weight`, nn.Linear layout) with llama.cpp's Q/K row order
undone (`unpermute_rope_rows`), so `llama.spec_from_config` and `llama.convert` read a GGUF
exactly as they read a folder. Every tensor type is dequantised: F32, Q8_0 and Q4_1 by the fast
path below (bit-identical to `gguf.quants.dequantize`), any other type by `gguf` itself.

Reading a GGUF is slow (GGUFReader parses ~100k metadata strings in ~2.5 s for SmolLM2,
dequantising takes ~1 s more), so the first load writes a cache: one `.safetensors` (written
atomically; its header metadata holds the spec and a SHA-256 of every tensor) plus a
`tokenizer.json` beside it whose SHA-256 the weights metadata records. Later loads read only
the cache; one that is truncated, altered, of another layout or source, or whose tokenizer
sidecar does not match, is rebuilt from the GGUF, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

from ..atomic import replacing
from ..errors import CorruptCacheError, ModelFileError
from ..spec import ModelSpec

LAYOUT = 4                      # bump when the cached tensors change meaning
_Q4_1, _Q8_0 = "Q4_1", "Q8_0"   # the two quantisations SmolLM2-135M-Instruct.Q4_1.gguf uses
_CONTROL = 3                    # llama.cpp token type of `<|im_start|>` and friends
ARCHS = ("llama", "qwen2")      # general.architecture values read (Mistral GGUFs say llama)
PRE_TOKENIZERS = ("smollm", "gpt2", "gpt-2", "default")


@dataclass(frozen=True)
class Weights:
    spec: ModelSpec
    tensors: dict[str, torch.Tensor]  # TransformerLens names and layout, float32
    tokenizer: Tokenizer
    from_cache: bool                  # False when this call read the GGUF (and wrote the cache)


# --- dequantisation ------------------------------------------------------------------------
# ggml blocks of 32 weights. Q8_0: f16 scale d, 32 x int8 q; w = q * d.
# Q4_1: f16 scale d, f16 minimum m, 16 bytes of nibbles (low nibbles are weights 0..15, high
# nibbles 16..31); w = d * q + m. Same float32 operations, in the same order, as
# gguf.quants.dequantize, so the results are bit-identical (tests check this), only faster.

def _blocks(data: np.ndarray, block_bytes: int) -> torch.Tensor:
    return torch.from_numpy(np.array(data, dtype=np.uint8, copy=True)).reshape(-1, block_bytes)


def _f16(blocks: torch.Tensor, start: int) -> torch.Tensor:
    return blocks[:, start:start + 2].contiguous().view(torch.float16).float()   # [blocks, 1]


def dequantize(data: np.ndarray, qtype: str) -> np.ndarray:
    """float32 weights [rows, cols] of one GGUF tensor (`data` is GGUFReader's `tensor.data`)."""
    if qtype == "F32":
        return np.array(data, dtype=np.float32, copy=True)
    rows = data.shape[0]
    if qtype == _Q8_0:
        b = _blocks(data, 34)
        q = b[:, 2:].contiguous().view(torch.int8).float()                      # [blocks, 32]
        return (q * _f16(b, 0)).reshape(rows, -1).numpy()
    if qtype == _Q4_1:
        b = _blocks(data, 20)
        nibbles = b[:, 4:]                                                       # [blocks, 16]
        q = torch.cat([nibbles & 0x0F, nibbles >> 4], dim=1).float()             # [blocks, 32]
        return (_f16(b, 0) * q + _f16(b, 2)).reshape(rows, -1).numpy()
    raise NotImplementedError(qtype)     # read_gguf hands every other type to gguf itself


def dequantize_any(t) -> np.ndarray:
    """float32 [rows, cols] (or [n]) of a GGUFReader tensor, whatever its type."""
    shape = tuple(int(n) for n in reversed(t.shape.tolist()))      # ggml lists cols first
    try:
        return dequantize(t.data, t.tensor_type.name).reshape(shape)
    except NotImplementedError:
        pass
    from gguf.quants import dequantize as gguf_dequantize
    try:
        w = gguf_dequantize(t.data, t.tensor_type)
    except NotImplementedError:
        raise ModelFileError(f"GGUF tensor {t.name}: type {t.tensor_type.name} cannot be "
                             "dequantised by the gguf package") from None
    return np.ascontiguousarray(w, dtype=np.float32).reshape(shape)


def unpermute_rope_rows(w: np.ndarray, n_head: int) -> np.ndarray:
    """Undo llama.cpp's Q/K row order, back to the Hugging Face checkpoint's.

    HF Llama applies RoPE rotate-half style: within a head, dim i pairs with dim i + d_head/2.
    llama.cpp rotates adjacent pairs (2i, 2i+1), so its converter reordered each head's rows:
    `w.reshape(n_head, 2, d_head // 2, cols).swapaxes(1, 2)` interleaves the two halves. The
    inverse reads the rows as (n_head, d_head // 2, 2) and swaps back. For K, `n_head` is the
    number of key/value heads.
    """
    rows, cols = w.shape
    half = rows // n_head // 2
    return np.ascontiguousarray(w.reshape(n_head, half, 2, cols).swapaxes(1, 2).reshape(rows, cols))


# --- reading the GGUF ----------------------------------------------------------------------

def _field(reader, key: str, default=None):
    if key not in reader.fields:
        if default is not None:
            return default
        raise ModelFileError(f"{reader.data.filename}: GGUF metadata has no {key!r}")
    return reader.fields[key].contents()


def read_config(reader) -> dict:
    """The GGUF's architecture numbers as a Hugging Face config dict (`llama.spec_from_config`)."""
    arch = _field(reader, "general.architecture")
    if arch not in ARCHS:
        raise ModelFileError(f"{reader.data.filename}: GGUF architecture {arch!r} is not "
                             f"supported; supported: {', '.join(ARCHS)}")
    a = lambda key, default=None: _field(reader, f"{arch}.{key}", default)   # noqa: E731
    n_heads, d_model = int(a("attention.head_count")), int(a("embedding_length"))
    n_tokens = len(reader.fields["tokenizer.ggml.tokens"].data) \
        if "tokenizer.ggml.tokens" in reader.fields else 0
    return {"model_type": arch, "_path": str(reader.data.filename),
            "num_hidden_layers": int(a("block_count")), "num_attention_heads": n_heads,
            "num_key_value_heads": int(a("attention.head_count_kv", n_heads)),
            "hidden_size": d_model, "head_dim": int(a("attention.key_length", d_model // n_heads)),
            "intermediate_size": int(a("feed_forward_length")),
            "max_position_embeddings": int(a("context_length")),
            "vocab_size": int(a("vocab_size", n_tokens)),
            "rope_theta": float(a("rope.freq_base", 10000.0)),
            "rms_norm_eps": float(a("attention.layer_norm_rms_epsilon")),
            "use_sliding_window": False}


_HF_NAMES = {"attn_norm": "input_layernorm", "ffn_norm": "post_attention_layernorm",
             "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj",
             "attn_v": "self_attn.v_proj", "attn_output": "self_attn.o_proj",
             "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj", "ffn_down": "mlp.down_proj"}


def hf_name(name: str) -> str:
    """`blk.3.attn_q.weight` -> `model.layers.3.self_attn.q_proj.weight` (and the globals)."""
    top = {"token_embd.weight": "model.embed_tokens.weight",
           "output_norm.weight": "model.norm.weight", "output.weight": "lm_head.weight"}
    if name in top:
        return top[name]
    parts = name.split(".")
    if len(parts) == 4 and parts[0] == "blk" and parts[2] in _HF_NAMES:
        return f"model.layers.{parts[1]}.{_HF_NAMES[parts[2]]}.{parts[3]}"
    return name                      # unknown tensors stay as they are (unused)


def gguf_spec(path: Path, name: str) -> ModelSpec:
    """The spec a GGUF's metadata gives (no tensor is dequantised)."""
    from gguf import GGUFReader
    from . import llama

    try:
        reader = GGUFReader(str(path))
    except (ValueError, OSError, KeyError, IndexError) as e:
        raise ModelFileError(f"{path}: not a readable GGUF file ({str(e)[:120]})") from None
    return llama.spec_from_config(read_config(reader), name, name, None)


def build_tokenizer(tokens: list[str], merges: list[str], token_types: list[int],
                    split_digits: bool) -> Tokenizer:
    """A byte-level BPE: GPT-2 regex, no prefix space, no BOS (SmolLM2 also splits digits one
    by one). The vocabulary is already spelled in GPT-2's byte alphabet ("Ġbank" is " bank"),
    and the control tokens (`<|im_start|>`, ...) are matched whole, as special tokens."""
    vocab = {tok: i for i, tok in enumerate(tokens)}
    pairs = [tuple(m.split(" ")) for m in merges]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=pairs, fuse_unk=False))
    pre = [pre_tokenizers.Digits(individual_digits=True)] if split_digits else []
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        pre + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False)
                            for t, kind in zip(tokens, token_types) if kind == _CONTROL])
    return tok


def read_tokenizer(reader) -> Tokenizer:
    path = reader.data.filename
    model, pre = _field(reader, "tokenizer.ggml.model"), _field(reader, "tokenizer.ggml.pre", "default")
    if model != "gpt2" or pre not in PRE_TOKENIZERS:
        raise ModelFileError(f"{path}: GGUF tokenizer {model!r} (pre-tokenizer {pre!r}) is not "
                             f"supported; supported: byte-level BPE 'gpt2' with pre-tokenizer "
                             f"{', '.join(PRE_TOKENIZERS)}")
    if _field(reader, "tokenizer.ggml.add_bos_token", False):
        raise ModelFileError(f"{path}: tokenizer.ggml.add_bos_token is set; not supported")
    return build_tokenizer(list(_field(reader, "tokenizer.ggml.tokens")),
                           list(_field(reader, "tokenizer.ggml.merges")),
                           list(_field(reader, "tokenizer.ggml.token_type")),
                           split_digits=pre == "smollm")


def read_gguf(path: Path) -> tuple[dict, dict[str, np.ndarray], Tokenizer]:
    """HF config dict, float32 tensors under HF names (Q/K rows in HF order), tokenizer."""
    from gguf import GGUFReader

    try:
        reader = GGUFReader(str(path))
    except (ValueError, OSError, KeyError, IndexError) as e:
        raise ModelFileError(f"{path}: not a readable GGUF file ({str(e)[:120]})") from None
    config = read_config(reader)
    permuted = config["model_type"] == "llama"     # llama.cpp reorders only Llama's Q/K rows
    tensors = {}
    for t in reader.tensors:
        w = dequantize_any(t)
        if permuted and ".attn_q." in t.name:
            w = unpermute_rope_rows(w.reshape(w.shape[0], -1), config["num_attention_heads"])
        elif permuted and ".attn_k." in t.name:
            w = unpermute_rope_rows(w.reshape(w.shape[0], -1), config["num_key_value_heads"])
        tensors[hf_name(t.name)] = w
    return config, tensors, read_tokenizer(reader)


# --- the cache -----------------------------------------------------------------------------
# One safetensors file, memory-mapped (copy-on-write: the model's tensors share the page cache
# and nothing is read until used). Its header metadata holds our JSON meta with two checksums:
# `meta_sha256` (over the rest of the meta), checked on every read, and `tensors_sha256`
# (trace.arrays_digest's recipe, over every tensor), checked once per file change: a small
# `<cache>.verified` sidecar records the file's (inode, size, mtime) after a successful check,
# and a file that was rewritten, truncated or touched since is hashed again before it is
# trusted. Sizes and offsets are checked on every read. The file is only ever replaced by
# rename, never rewritten in place, so a live mapping keeps the old file's pages.

_META_KEY = "layerwise"


def tokenizer_path(cache_path: Path) -> Path:
    """The tokenizer sidecar: `<cache stem>.tokenizer.json` beside the weights."""
    return cache_path.with_name(cache_path.stem + ".tokenizer.json")


def tensors_digest(tensors: dict[str, np.ndarray]) -> str:
    """`trace.arrays_digest` without its copies: the same SHA-256 over memoryviews."""
    h = hashlib.sha256()
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(memoryview(a).cast("B"))
    return h.hexdigest()


def _meta_digest(meta: dict) -> str:
    rest = {k: v for k, v in meta.items() if k != "meta_sha256"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()


def write_safetensors(path: Path, tensors: dict[str, np.ndarray], meta: dict) -> None:
    """float32 tensors + JSON meta, atomically, with the checksums `read_safetensors` checks."""
    from safetensors.numpy import save_file

    meta = {**meta, "tensors_sha256": tensors_digest(tensors)}
    meta["meta_sha256"] = _meta_digest(meta)
    with replacing(path) as tmp:
        save_file(tensors, tmp, metadata={_META_KEY: json.dumps(meta, sort_keys=True)})
    _mark_verified(path, _stat_key(path), meta["tensors_sha256"])   # hashed as it was written


def verified_path(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _stat_key(path: Path) -> list:
    st = os.stat(path)
    return [st.st_ino, st.st_size, st.st_mtime_ns]


def _was_verified(path: Path, key: list, digest: str | None) -> bool:
    try:
        rec = json.loads(verified_path(path).read_text())
    except (OSError, ValueError):
        return False
    return isinstance(rec, dict) and rec.get("key") == key and rec.get("sha256") == digest


def _mark_verified(path: Path, key: list, digest: str) -> None:
    try:
        with replacing(verified_path(path)) as tmp:
            tmp.write_text(json.dumps({"key": key, "sha256": digest}))
    except Exception:            # a read-only cache only costs a re-hash next time
        pass


def read_safetensors(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """Meta and float32 tensors (memory-mapped); CorruptCacheError unless size, header and
    checksums agree (the tensors' checksum once per file change, see above)."""
    path = Path(path)
    key = _stat_key(path)
    size = key[1]
    if size < 8:
        raise CorruptCacheError(f"{path}: truncated or corrupt (only {size} bytes)")
    buf = np.memmap(path, dtype=np.uint8, mode="c")   # copy-on-write: writable, never written
    try:
        header_len = int.from_bytes(buf[:8].tobytes(), "little")
        base = 8 + header_len
        if base > size:
            raise ValueError(f"header of {header_len} bytes does not fit in {size}")
        header = json.loads(buf[8:base].tobytes())
        meta = json.loads(header.pop("__metadata__")[_META_KEY])
        if _meta_digest(meta) != meta["meta_sha256"]:
            raise ValueError("metadata checksum mismatch")
        tensors, end = {}, 0
        for name, info in header.items():
            start, stop = info["data_offsets"]
            shape = tuple(info["shape"])
            if info["dtype"] != "F32" or stop - start != 4 * int(np.prod(shape, dtype=np.int64)):
                raise ValueError(f"tensor {name!r}: {info}")
            end = max(end, stop)
            tensors[name] = buf[base + start:base + stop].view(np.float32).reshape(shape)
        if base + end != size:
            raise ValueError(f"data ends at byte {base + end}, the file has {size}")
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise CorruptCacheError(f"{path}: truncated or corrupt ({e})") from None
    digest = meta.get("tensors_sha256")
    if not _was_verified(path, key, digest):
        if tensors_digest(tensors) != digest:
            raise CorruptCacheError(f"{path}: tensor checksum mismatch (file altered or corrupt)")
        _mark_verified(path, key, digest)
    return meta, tensors


# Matrices are stored in nn.Linear's [out, in] form (named `<name>.lin`), the form the forward
# multiplies by (transformer.linear_forms); the TransformerLens tensors are views of them.
_LIN = ".lin"


def _to_linear(k: str, v: torch.Tensor) -> torch.Tensor | None:
    last = k.rsplit(".", 1)[-1]
    if last in ("W_Q", "W_K", "W_V"):                     # [h, d, dh] -> [h*dh, d]
        return v.permute(0, 2, 1).reshape(-1, v.shape[1])
    if last == "W_O":                                     # [h, dh, d] -> [d, h*dh]
        return v.reshape(-1, v.shape[-1]).T
    if last in ("W_in", "W_gate", "W_out", "W_U"):        # [d, m] -> [m, d], [m, d] -> [d, m]
        return v.T                                        # W_U [d, vocab] -> [vocab, d]
    return None


def _from_linear(k: str, lin: torch.Tensor, spec: ModelSpec) -> torch.Tensor:
    last = k.rsplit(".", 1)[-1]
    if last in ("W_Q", "W_K", "W_V"):
        heads = spec.n_heads if last == "W_Q" else spec.n_kv_heads
        return lin.view(heads, spec.d_head, spec.d_model).permute(0, 2, 1)
    if last == "W_O":
        return lin.T.reshape(spec.n_heads, spec.d_head, spec.d_model)
    return lin.T


def _read_cache(cache_path: Path, source: dict) -> Weights:
    """The cached weights, or CorruptCacheError / FileNotFoundError."""
    meta, tensors = read_safetensors(cache_path)
    if meta.get("kind") != "gguf-weights" or meta.get("layout") != LAYOUT:
        raise CorruptCacheError(f"{cache_path}: not a layout-{LAYOUT} GGUF weights cache")
    if meta.get("source") != source:
        raise CorruptCacheError(f"{cache_path}: cached from {meta.get('source')}, not {source}")
    tok_path = tokenizer_path(cache_path)
    blob = tok_path.read_bytes()
    if hashlib.sha256(blob).hexdigest() != meta.get("tokenizer_sha256"):
        raise CorruptCacheError(f"{tok_path}: does not match the weights cache's checksum")
    try:
        spec = ModelSpec.from_json(meta["spec"])
        tokenizer = Tokenizer.from_str(blob.decode("utf-8"))
    except Exception as e:   # both are checksummed: a layout this code cannot read (bump LAYOUT)
        raise CorruptCacheError(f"{cache_path}: unusable cached spec or tokenizer ({e})") from None
    t = {}
    for k, v in tensors.items():                                      # shares the memory
        if k.endswith(_LIN):       # a TL view of the [out, in] storage the forward reads
            t[k.removesuffix(_LIN)] = _from_linear(k.removesuffix(_LIN), torch.from_numpy(v), spec)
        else:
            t[k] = torch.from_numpy(v)
    if meta.get("tied"):
        t["unembed.W_U"] = t["embed.W_E"].T
    return Weights(spec, t, tokenizer, True)


def convert_gguf(gguf_path: Path) -> tuple[ModelSpec, dict[str, torch.Tensor], Tokenizer, bool]:
    """Spec (named after the file), TransformerLens-layout tensors, tokenizer, tied or not."""
    from . import llama
    from .checkpoint import Tensors

    config, tensors, tokenizer = read_gguf(Path(gguf_path))
    stem = Path(gguf_path).stem
    spec = llama.spec_from_config(config, stem, stem, None)
    n_tok = tokenizer.get_vocab_size(with_added_tokens=True)
    if n_tok > spec.d_vocab:
        raise ModelFileError(f"{gguf_path}: the tokenizer has {n_tok} tokens but the embedding "
                             f"has {spec.d_vocab} rows")
    sd = Tensors({k: torch.from_numpy(v) for k, v in tensors.items()}, str(gguf_path))
    W = llama.convert(sd, spec)
    return spec, W, tokenizer, "lm_head.weight" not in sd


def load_weights(gguf_path: Path, cache_path: Path, source: dict) -> Weights:
    """Weights from `cache_path` (a .safetensors) if it is sound, else from the GGUF, then cached.

    `source` (the GGUF's size and SHA-256) is stored in the cache and must match on reading.
    """
    cache_path = Path(cache_path)
    try:
        return _read_cache(cache_path, source)
    except (FileNotFoundError, CorruptCacheError):
        pass  # missing or unsound: rebuilt below, never trusted
    spec, W, tokenizer, tied = convert_gguf(gguf_path)
    text = tokenizer.to_str().encode("utf-8")
    # the sidecar first, so a complete weights file implies its tokenizer was written
    with replacing(tokenizer_path(cache_path)) as tmp:
        tmp.write_bytes(text)
    stored = {}
    for k, v in W.items():
        if tied and k == "unembed.W_U":
            continue
        lin = _to_linear(k, v)                                       # see _LIN
        if lin is not None:
            stored[k + _LIN] = lin.contiguous().numpy()
        else:
            stored[k] = v.numpy()
    write_safetensors(cache_path, stored, {
        "kind": "gguf-weights", "layout": LAYOUT, "source": source, "spec": spec.to_json(),
        "tied": tied, "tokenizer_sha256": hashlib.sha256(text).hexdigest()})
    return Weights(spec, W, tokenizer, False)
