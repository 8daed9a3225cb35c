"""A local Hugging Face folder -> a Transformer: `config.json` (the architecture from
`model_type`), `*.safetensors` (sharded too, with `model.safetensors.index.json`) and
`tokenizer.json` (read with the `tokenizers` package). Nothing is unpickled, nothing fetched.
"""

from __future__ import annotations

import json
from pathlib import Path

from tokenizers import Tokenizer

from ..errors import ModelFileError
from ..spec import ModelSpec
from . import bert, gpt2, llama
from .checkpoint import Tensors, read_safetensors, safetensors_files
from .text import Text
from .transformer import Transformer

# model_type -> the module that reads its config and converts its tensors
ARCHS = {"bert": bert, "gpt2": gpt2, "llama": llama, "qwen2": llama, "mistral": llama}
KINDS = {"bert": "encoder", "gpt2": "decoder", "llama": "decoder", "qwen2": "decoder",
         "mistral": "decoder"}


def read_config(folder: Path) -> dict:
    path = Path(folder) / "config.json"
    if not path.is_file():
        found = ", ".join(sorted(p.name for p in Path(folder).iterdir())[:6]) or "nothing"
        raise ModelFileError(f"{folder}: no config.json (found {found}); a Hugging Face model "
                             "folder needs config.json, *.safetensors and tokenizer.json")
    try:
        cfg = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise ModelFileError(f"{path}: not JSON ({e})") from None
    if not isinstance(cfg, dict):
        raise ModelFileError(f"{path}: not a JSON object")
    mt = cfg.get("model_type")
    if mt not in ARCHS:
        raise ModelFileError(f"{path}: model_type {mt!r} is not supported; supported: "
                             f"{', '.join(ARCHS)}")
    return {**cfg, "_path": str(path)}


def kind_of(folder: Path) -> str:
    return KINDS[read_config(folder)["model_type"]]


def folder_spec(folder: Path, name: str, display: str, package: str | None) -> ModelSpec:
    cfg = read_config(folder)
    try:
        return ARCHS[cfg["model_type"]].spec_from_config(cfg, name, display, package)
    except KeyError as e:
        raise ModelFileError(f"{cfg['_path']}: no {e.args[0]!r}") from None
    except (TypeError, ValueError, ZeroDivisionError) as e:
        raise ModelFileError(f"{cfg['_path']}: unusable value ({e})") from None


def folder_files(folder: Path) -> list[Path]:
    """The files a trace of this folder depends on (what the source hashes cover)."""
    folder = Path(folder)
    read_config(folder)                          # there, JSON, and of a supported model_type
    return [folder / "config.json", *safetensors_files(folder), tokenizer_file(folder)]


def tokenizer_file(folder: Path) -> Path:
    path = Path(folder) / "tokenizer.json"
    if not path.is_file():
        raise ModelFileError(f"{folder}: no tokenizer.json (a `tokenizers` file is needed; "
                             "tokenizer.model / vocab.txt alone are not read)")
    return path


def read_text(path: Path, spec: ModelSpec) -> Text:
    try:
        text = Text(Tokenizer.from_file(str(path)))
    except Exception as e:               # the tokenizers package raises plain Exceptions
        raise ModelFileError(f"{path}: not a readable tokenizer ({str(e)[:120]})") from None
    if text.vocab_size > spec.d_vocab:
        raise ModelFileError(f"{path}: the tokenizer has {text.vocab_size} tokens but the "
                             f"embedding has {spec.d_vocab} rows (config.json vocab_size)")
    return text


def load_folder(folder: Path, name: str, display: str, package: str | None,
                source: dict) -> Transformer:
    folder = Path(folder)
    spec = folder_spec(folder, name, display, package)
    arch = ARCHS[read_config(folder)["model_type"]]
    text = read_text(tokenizer_file(folder), spec)
    files = safetensors_files(folder)
    sd = Tensors(read_safetensors(files), str(files[0] if len(files) == 1 else folder),
                 arch.PREFIXES)
    return Transformer(spec, arch.convert(sd, spec), text, source, arch.MATMUL)
