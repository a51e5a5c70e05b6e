"""Published files: named by public address, written atomically, pre-compressed, never rewritten unchanged.

An address ``/t/<slug>/standings/`` is the file ``<root>/t/<slug>/standings/index.html``; an API address
(``/api/...``) ends in ``index.json``. Caddy's ``try_files {path}index.html {path}index.json`` follows the
same rule (docker/published.caddy). Beside each file sits its gzip (``.gz``, the same modification time), for
Caddy's ``precompressed gzip``.

Caddy 2.6's ETag is the file's modification time in whole seconds plus its size: a changed file of the same
size written within the same second would keep its ETag and a phone would keep the old page. So every
changed write moves the modification time forward by at least one whole second (``next_mtime``), and an
unchanged render writes nothing (the ETag, and the phones' 304s, stay).

Writes go to a temporary file in the same folder, then ``os.replace``: a reader sees the old file or the new
one, never half of one. The gzip is replaced first and the page last, so the page is the mark that both are
written (a render compares against the page).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import shutil
import tempfile
import time
from pathlib import Path

from django.conf import settings

GZIP_SUFFIX = ".gz"
STATE_DIR = ".state"


def root() -> Path:
    """Where published files live (``settings.PUBLISH_ROOT``)."""
    return Path(settings.PUBLISH_ROOT)


def file_for(address: str, base: Path | None = None) -> Path:
    """The file of a public address: ``/t/x/standings/`` -> ``<root>/t/x/standings/index.html``."""
    if not address.startswith("/") or not address.endswith("/") or "\x00" in address:
        raise ValueError(f"not a page address: {address!r}")
    parts = [p for p in address.split("/") if p]
    if any(p in (".", "..") or p.startswith(".") for p in parts):
        raise ValueError(f"not a page address: {address!r}")
    name = "index.json" if address.startswith("/api/") else "index.html"
    return (base or root()).joinpath(*parts, name)


def next_mtime(path: Path) -> int:
    """Whole seconds, at least one past the file's (and its gzip's) current modification time."""
    now = int(time.time())
    latest = 0.0
    for candidate in (path, path.with_name(path.name + GZIP_SUFFIX)):
        with contextlib.suppress(FileNotFoundError):
            latest = max(latest, candidate.stat().st_mtime)
    return max(now, int(latest) + 1) if latest else now


def _replace(path: Path, content: bytes, mtime: int) -> None:
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(content)
        os.chmod(temp, 0o644)  # mkstemp's 0600 would hide the file from the proxy's user
        os.utime(temp, (mtime, mtime))
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def write(address: str, content: bytes, base: Path | None = None) -> bool:
    """Publish ``content`` at ``address``; False (and nothing touched) when the file already holds it."""
    path = file_for(address, base)
    try:
        if path.read_bytes() == content:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    mtime = next_mtime(path)
    _replace(path.with_name(path.name + GZIP_SUFFIX), gzip.compress(content, compresslevel=6, mtime=0), mtime)
    _replace(path, content, mtime)
    return True


def remove(address: str, base: Path | None = None) -> bool:
    """Withdraw one page (and its gzip); True when there was one."""
    path = file_for(address, base)
    removed = False
    for candidate in (path.with_name(path.name + GZIP_SUFFIX), path):
        with contextlib.suppress(FileNotFoundError):
            candidate.unlink()
            removed = True
    return removed


def published_addresses(prefix: str, base: Path | None = None) -> set[str]:
    """Every address published under a folder address (``/t/<slug>/``)."""
    top = file_for(prefix, base).parent
    found: set[str] = set()
    if not top.is_dir():
        return found
    start = (base or root())
    for directory, _dirs, names in os.walk(top):
        for name in names:
            if name in ("index.html", "index.json"):
                rel = Path(directory).relative_to(start).as_posix()
                found.add("/" if rel == "." else f"/{rel}/")
    return found


def remove_tree(prefix: str, base: Path | None = None) -> bool:
    """Withdraw everything under a folder address at once: renamed aside (one atomic step), then deleted."""
    top = file_for(prefix, base).parent
    if not top.is_dir():
        return False
    aside = top.with_name(f".withdrawn-{top.name}-{os.getpid()}-{time.monotonic_ns()}")
    os.replace(top, aside)
    shutil.rmtree(aside, ignore_errors=True)
    return True


def state_dir(base: Path | None = None) -> Path:
    """The renderer's own records (fingerprints, last render, locks): never served (a dot folder)."""
    directory = (base or root()) / STATE_DIR
    directory.mkdir(parents=True, exist_ok=True)
    return directory
