"""Mirrors `torch.hub`: the cache directory (`get_dir`, `set_dir`), `download_url_to_file`,
`load_state_dict_from_url`, `load` from a local directory's hubconf.py, and `tqdm` (the real
one when installed, else torch's stand-in, which is not iterable: `for b in tqdm(loader)` fails
as torch's does).

Differences: `load`, `list` and `help` do not fetch GitHub repositories (source="github"
raises a RuntimeError saying so); `load(..., source="local")` is torch's."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import shutil
import sys
import tempfile
import uuid
import warnings
import zipfile
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse
from urllib.request import Request, urlopen

__all__ = [
    "download_url_to_file",
    "get_dir",
    "help",
    "list",
    "load",
    "load_state_dict_from_url",
    "set_dir",
]


class _Faketqdm:
    """torch.hub's stand-in for tqdm when tqdm is not installed."""

    def __init__(
        self, total: Any = None, disable: bool = False, unit: Any = None, *args: Any, **kwargs: Any
    ) -> None:
        self.total = total
        self.disable = disable
        self.n = 0

    def update(self, n: int) -> None:
        if self.disable:
            return
        self.n += n
        if self.total is None:
            sys.stderr.write(f"\r{self.n:.1f} bytes")
        else:
            sys.stderr.write(f"\r{100 * self.n / float(self.total):.1f}%")
        sys.stderr.flush()

    def set_description(self, *args: Any, **kwargs: Any) -> None:
        pass

    def write(self, s: str) -> None:
        sys.stderr.write(f"{s}\n")

    def close(self) -> None:
        self.disable = True

    def __enter__(self) -> _Faketqdm:
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        if self.disable:
            return
        sys.stderr.write("\n")


try:
    from tqdm import tqdm  # the real one when installed, as torch's
except ImportError:
    tqdm = _Faketqdm  # type: ignore[assignment,misc]

ENV_GITHUB_TOKEN = "GITHUB_TOKEN"
ENV_TORCH_HOME = "TORCH_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
DEFAULT_CACHE_DIR = "~/.cache"
VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
READ_DATA_CHUNK = 128 * 1024
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")

_hub_dir: str | None = None


def _get_torch_home() -> str:
    return os.path.expanduser(
        os.getenv(
            ENV_TORCH_HOME, os.path.join(os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR), "torch")
        )
    )


def get_dir() -> str:
    """Mirrors `torch.hub.get_dir`: set_dir's directory, else $TORCH_HOME/hub."""
    if os.getenv("TORCH_HUB"):
        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead", stacklevel=2)
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_torch_home(), "hub")


def set_dir(d: str | os.PathLike[str]) -> None:
    """Mirrors `torch.hub.set_dir`."""
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def download_url_to_file(
    url: str, dst: str, hash_prefix: str | None = None, progress: bool = True
) -> None:
    """Mirrors `torch.hub.download_url_to_file`: through a temporary file moved into place,
    checking the SHA256 prefix when given."""
    dst = os.path.expanduser(dst)
    for _ in range(tempfile.TMP_MAX):
        tmp_dst = dst + "." + uuid.uuid4().hex + ".partial"
        try:
            f = open(tmp_dst, "w+b")  # noqa: SIM115
        except FileExistsError:
            continue
        break
    else:
        raise FileExistsError(errno.EEXIST, "No usable temporary file name found")
    req = Request(url, headers={"User-Agent": "torch.hub"})
    try:
        with urlopen(req) as u:
            meta = u.info()
            if hasattr(meta, "getheaders"):
                content_length = meta.getheaders("Content-Length")
            else:
                content_length = meta.get_all("Content-Length")
            file_size = None
            if content_length is not None and len(content_length) > 0:
                file_size = int(content_length[0])
            sha256 = hashlib.sha256() if hash_prefix is not None else None
            with tqdm(
                total=file_size, disable=not progress, unit="B", unit_scale=True, unit_divisor=1024
            ) as pbar:
                while True:
                    buffer = u.read(READ_DATA_CHUNK)
                    if len(buffer) == 0:
                        break
                    f.write(buffer)
                    if sha256 is not None:
                        sha256.update(buffer)
                    pbar.update(len(buffer))
            f.close()
            if sha256 is not None and hash_prefix is not None:
                digest = sha256.hexdigest()
                if digest[: len(hash_prefix)] != hash_prefix:
                    raise RuntimeError(
                        f'invalid hash value (expected "{hash_prefix}", got "{digest}")'
                    )
        shutil.move(f.name, dst)
    finally:
        f.close()
        if os.path.exists(f.name):
            os.remove(f.name)


def _is_legacy_zip_format(filename: str) -> bool:
    if zipfile.is_zipfile(filename):
        with zipfile.ZipFile(filename) as zf:
            infolist = zf.infolist()
        return len(infolist) == 1 and not infolist[0].is_dir()
    return False


def _legacy_zip_load(filename: str, model_dir: str, map_location: Any, weights_only: bool) -> Any:
    from .serialization import load as _load

    warnings.warn(
        "Falling back to the old format < 1.6. This support will be deprecated in favor of "
        "default zipfile format introduced in 1.6. Please redo torch.save() to save it in the "
        "new zipfile format.",
        FutureWarning,
        stacklevel=3,
    )
    with zipfile.ZipFile(filename) as f:
        members = f.infolist()
        if len(members) != 1:
            raise RuntimeError("Only one file(not dir) is allowed in the zipfile")
        f.extractall(model_dir)
        extracted_file = os.path.join(model_dir, members[0].filename)
    return _load(extracted_file, map_location=map_location, weights_only=weights_only)


def load_state_dict_from_url(
    url: str,
    model_dir: str | None = None,
    map_location: Any = None,
    progress: bool = True,
    check_hash: bool = False,
    file_name: str | None = None,
    weights_only: bool = False,
) -> Any:
    """Mirrors `torch.hub.load_state_dict_from_url`: the object at url, downloaded once into
    model_dir (<hub_dir>/checkpoints) and read with torch.load."""
    from .serialization import load as _load

    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn(
            "TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead", stacklevel=2
        )
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = os.path.basename(urlparse(url).path)
    if file_name is not None:
        filename = file_name
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stdout.write(f'Downloading: "{url}" to {cached_file}\n')
        hash_prefix = None
        if check_hash:
            r = HASH_REGEX.search(filename)
            hash_prefix = r.group(1) if r else None
        download_url_to_file(url, cached_file, hash_prefix, progress=progress)
    if _is_legacy_zip_format(cached_file):
        return _legacy_zip_load(cached_file, model_dir, map_location, weights_only)
    return _load(cached_file, map_location=map_location, weights_only=weights_only)


@contextlib.contextmanager
def _add_to_sys_path(path: str) -> Iterator[None]:
    sys.path.insert(0, path)
    try:
        yield
    finally:
        sys.path.remove(path)


def _import_module(name: str, path: str) -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AssertionError(f"failed to load spec from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_entry_from_hubconf(m: Any, model: Any) -> Any:
    import importlib.util

    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    dependencies = getattr(m, VAR_DEPENDENCY, None) if VAR_DEPENDENCY in dir(m) else None
    if dependencies is not None:
        missing = [pkg for pkg in dependencies if importlib.util.find_spec(pkg) is None]
        if missing:
            raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    func = getattr(m, model) if model in dir(m) else None
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return func


def _no_github(repo: str) -> RuntimeError:
    return RuntimeError(
        f"shadowgrad.hub does not fetch GitHub repositories ({repo!r}); clone it and use "
        "source='local'"
    )


def load(
    repo_or_dir: str,
    model: str,
    *args: Any,
    source: str = "github",
    trust_repo: Any = "check",
    force_reload: bool = False,
    verbose: bool = True,
    skip_validation: bool = False,
    **kwargs: Any,
) -> Any:
    """Mirrors `torch.hub.load` for source='local': the entrypoint `model` of the directory's
    hubconf.py called with args and kwargs."""
    source = source.lower()
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        raise _no_github(repo_or_dir)
    with _add_to_sys_path(repo_or_dir):
        hub_module = _import_module(MODULE_HUBCONF, os.path.join(repo_or_dir, MODULE_HUBCONF))
        entry = _load_entry_from_hubconf(hub_module, model)
        return entry(*args, **kwargs)


def list(  # torch's name
    github: str,
    force_reload: bool = False,
    skip_validation: bool = False,
    trust_repo: Any = "check",
    verbose: bool = True,
) -> Any:
    """`torch.hub.list` needs a GitHub download, which shadowgrad does not do."""
    raise _no_github(github)


def help(  # torch's name
    github: str,
    model: str,
    force_reload: bool = False,
    skip_validation: bool = False,
    trust_repo: Any = "check",
) -> Any:
    """`torch.hub.help` needs a GitHub download, which shadowgrad does not do."""
    raise _no_github(github)
