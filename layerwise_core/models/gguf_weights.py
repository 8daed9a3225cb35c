"""Llama weights, config and tokenizer out of a llama.cpp GGUF file, cached as float32.

Reading the GGUF is slow (GGUFReader parses ~100k metadata strings in ~2.5 s, dequantising
takes ~1 s more), so the first load writes everything to a cache: one `.safetensors` file
(written atomically; its header metadata holds the config and a SHA-256 of every tensor) plus
a `tokenizer.json` beside it whose SHA-256 the weights metadata records. Later loads read only
the cache; one that is truncated, altered, of another layout or source, or whose tokenizer
sidecar does not match, is rebuilt from the GGUF, never trusted.

What the cache holds, as llama.py wants it:
  * tensors under their GGUF names (`token_embd.weight`, `blk.{l}.attn_q.weight`, ...), float32,
    in torch `nn.Linear` layout [out_features, in_features] (1-d for norm gains);
  * `attn_q` / `attn_k` rows put back in Hugging Face order (see `unpermute_rope_rows`), so the
    rotate-half RoPE convention applies, exactly as in the original checkpoint;
  * the config (`LlamaConfig`) and the byte-level BPE tokenizer (`tokenizers` JSON).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

from ..atomic import replacing
from ..errors import CorruptCacheError, ModelPackageMissingError

LAYOUT = 1                      # bump when the cached tensors change meaning
_Q4_1, _Q8_0 = "Q4_1", "Q8_0"   # the two quantisations SmolLM2-135M-Instruct.Q4_1.gguf uses
_CONTROL = 3                    # llama.cpp token type of `<|im_start|>` and friends


@dataclass(frozen=True)
class LlamaConfig:
    """The architecture numbers a GGUF's `llama.*` metadata gives."""

    n_layers: int
    n_heads: int
    n_kv_heads: int
    d_model: int
    d_head: int
    d_mlp: int
    n_ctx: int
    d_vocab: int
    rope_theta: float
    rms_eps: float

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class LlamaWeights:
    config: LlamaConfig
    tensors: dict[str, np.ndarray]    # GGUF names, float32, Q/K rows un-permuted
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
    raise NotImplementedError(f"GGUF tensor type {qtype} is not supported (only F32, Q8_0, Q4_1)")


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

def _field(reader, key: str):
    if key not in reader.fields:
        raise ModelPackageMissingError(f"{reader.data.filename}: GGUF metadata has no {key!r}; "
                                       "reinstall the model package")
    return reader.fields[key].contents()


def read_config(reader) -> LlamaConfig:
    arch = _field(reader, "general.architecture")
    if arch != "llama":
        raise NotImplementedError(f"GGUF architecture {arch!r} is not llama")
    n_heads = int(_field(reader, "llama.attention.head_count"))
    d_model = int(_field(reader, "llama.embedding_length"))
    return LlamaConfig(
        n_layers=int(_field(reader, "llama.block_count")),
        n_heads=n_heads,
        n_kv_heads=int(_field(reader, "llama.attention.head_count_kv")),
        d_model=d_model,
        d_head=d_model // n_heads,
        d_mlp=int(_field(reader, "llama.feed_forward_length")),
        n_ctx=int(_field(reader, "llama.context_length")),
        d_vocab=int(_field(reader, "llama.vocab_size")),
        rope_theta=float(_field(reader, "llama.rope.freq_base")),
        rms_eps=float(_field(reader, "llama.attention.layer_norm_rms_epsilon")),
    )


def build_tokenizer(tokens: list[str], merges: list[str], token_types: list[int]) -> Tokenizer:
    """SmolLM2's byte-level BPE: digits split one by one, GPT-2 regex, no prefix space, no BOS.

    The vocabulary is already spelled in GPT-2's byte alphabet ("Ġbank" is " bank"), and the
    control tokens (`<|im_start|>`, ...) are matched whole, as special tokens.
    """
    vocab = {tok: i for i, tok in enumerate(tokens)}
    pairs = [tuple(m.split(" ")) for m in merges]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=pairs, fuse_unk=False))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
    ])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False)
                            for t, kind in zip(tokens, token_types) if kind == _CONTROL])
    return tok


def read_gguf(path: Path) -> tuple[LlamaConfig, dict[str, np.ndarray], Tokenizer]:
    """Config, float32 tensors (Q/K un-permuted) and tokenizer, straight from the GGUF."""
    from gguf import GGUFReader

    reader = GGUFReader(str(path))
    config = read_config(reader)
    tensors = {}
    for t in reader.tensors:
        w = dequantize(t.data, t.tensor_type.name)
        if ".attn_q." in t.name:
            w = unpermute_rope_rows(w, config.n_heads)
        elif ".attn_k." in t.name:
            w = unpermute_rope_rows(w, config.n_kv_heads)
        tensors[t.name] = w
    if _field(reader, "tokenizer.ggml.model") != "gpt2":
        raise NotImplementedError(f"{path}: only byte-level BPE (gpt2) tokenizers are supported")
    tokenizer = build_tokenizer(list(_field(reader, "tokenizer.ggml.tokens")),
                                list(_field(reader, "tokenizer.ggml.merges")),
                                list(_field(reader, "tokenizer.ggml.token_type")))
    return config, tensors, tokenizer


# --- the cache -----------------------------------------------------------------------------
# One safetensors file, read whole into memory (no mmap: a file truncated later must not take a
# live model down with it). Its header metadata holds our JSON meta with two checksums, both
# verified on every read: `tensors_sha256` (trace.arrays_digest's recipe, over every tensor)
# and `meta_sha256` (over the rest of the meta). Why not trace.save_npz/load_npz: their digest
# copies each array (tobytes) after np.load has copied it out of the zip, so verifying 540 MB
# took 1.2-1.3 s; reading and hashing in place here takes ~0.5 s for the whole warm load.

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


def read_safetensors(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """Meta and float32 tensors; CorruptCacheError unless size, header and checksum all agree."""
    path = Path(path)
    size = path.stat().st_size
    buf = np.empty(size, np.uint8)              # writable, so torch.from_numpy can share it
    with open(path, "rb") as f:
        got = f.readinto(memoryview(buf))
    try:
        if got != size or size < 8:
            raise ValueError(f"read {got} of {size} bytes")
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
    if tensors_digest(tensors) != meta.get("tensors_sha256"):
        raise CorruptCacheError(f"{path}: tensor checksum mismatch (file altered or corrupt)")
    return meta, tensors


def _read_cache(cache_path: Path, source: dict) -> LlamaWeights:
    """The cached weights, or CorruptCacheError / FileNotFoundError."""
    meta, tensors = read_safetensors(cache_path)
    if meta.get("kind") != "llama-weights" or meta.get("layout") != LAYOUT:
        raise CorruptCacheError(f"{cache_path}: not a layout-{LAYOUT} llama weights cache")
    if meta.get("source") != source:
        raise CorruptCacheError(f"{cache_path}: cached from {meta.get('source')}, not {source}")
    tok_path = tokenizer_path(cache_path)
    blob = tok_path.read_bytes()
    if hashlib.sha256(blob).hexdigest() != meta.get("tokenizer_sha256"):
        raise CorruptCacheError(f"{tok_path}: does not match the weights cache's checksum")
    try:
        config = LlamaConfig(**meta["config"])
        tokenizer = Tokenizer.from_str(blob.decode("utf-8"))
    except Exception as e:   # both are checksummed: a layout this code cannot read (bump LAYOUT)
        raise CorruptCacheError(f"{cache_path}: unusable cached config or tokenizer ({e})") from None
    return LlamaWeights(config, tensors, tokenizer, True)


def load_weights(gguf_path: Path, cache_path: Path, source: dict) -> LlamaWeights:
    """Weights from `cache_path` (a .safetensors) if it is sound, else from the GGUF, then cached.

    `source` (package, version, file, size) is stored in the cache and must match on reading.
    """
    cache_path = Path(cache_path)
    try:
        return _read_cache(cache_path, source)
    except (FileNotFoundError, CorruptCacheError):
        pass  # missing or unsound: rebuilt below, never trusted
    config, tensors, tokenizer = read_gguf(Path(gguf_path))
    text = tokenizer.to_str().encode("utf-8")
    # the sidecar first, so a complete weights file implies its tokenizer was written
    with replacing(tokenizer_path(cache_path)) as tmp:
        tmp.write_bytes(text)
    write_safetensors(cache_path, tensors, {
        "kind": "llama-weights", "layout": LAYOUT, "source": source, "config": config.to_json(),
        "tokenizer_sha256": hashlib.sha256(text).hexdigest()})
    return LlamaWeights(config, tensors, tokenizer, False)
