#!/usr/bin/env python3
"""Fail when unicode.org has published UTS #58 data for a newer Unicode version than the package ships.

Run by the scheduled workflow ``.github/workflows/unicode-check.yml`` (the only place with the
network; the unit tests call :func:`check` with a stub, tests/test_unicode_check.py).  Like
kjd/idna's ``unicode-check``, it reads the latest Unicode version from a UCD file header
(``# DerivedAge-18.0.0.txt`` at ``Public/UCD/latest/``), then asks, without following
redirects, whether ``Public/<version>/linkification/LinkTerm.txt`` exists for every
version newer than the newest *final* one the package ships (a draft, such as
``18.0.0-draft``, does not count: its final data may differ).  An unreleased version's path
redirects to ``Public/draft/``, so only a 200 counts as published.

    python tools/check_unicode_version.py        # exit 0: current; 1: newer data published; 2: no answer

To update when it fails: docs/data.md, "Another Unicode version".
"""

from __future__ import annotations

import ast
import http.client
import re
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HOST = "www.unicode.org"
LATEST_UCD = "/Public/UCD/latest/ucd/DerivedAge.txt"
#: A UTS #58 data file of a release directory.
LINK_DATA = "/Public/{version}/linkification/LinkTerm.txt"

#: ``fetch(path, method)`` -> (HTTP status, body); redirects are not followed.
Fetch = Callable[[str, str], tuple[int, bytes]]


def shipped(source: Path = REPO / "uts58_adapt" / "_unicode_version.py") -> dict[str, str]:
    """``SHIPPED`` of the package (version -> data directory), read without importing it."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        target = (
            node.target
            if isinstance(node, ast.AnnAssign)
            else (node.targets[0] if isinstance(node, ast.Assign) else None)
        )
        if isinstance(target, ast.Name) and target.id == "SHIPPED" and node.value is not None:
            value = ast.literal_eval(node.value)
            return {version: directory for version, (_suffix, directory) in value.items()}
    raise ValueError(f"{source}: no SHIPPED")


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def newest_final(versions: dict[str, str]) -> str:
    """The newest version whose data the package ships final (its directory is the version itself)."""
    return max((v for v, directory in versions.items() if directory == v), key=_key)


def fetch(path: str, method: str = "GET") -> tuple[int, bytes]:
    """One HTTPS request to unicode.org, redirects not followed."""
    connection = http.client.HTTPSConnection(HOST, timeout=60)
    try:
        connection.request(method, path, headers={"User-Agent": "uts58-adapt unicode-check"})
        response = connection.getresponse()
        return response.status, response.read() if method == "GET" else b""
    finally:
        connection.close()


def check(get: Fetch = fetch, versions: dict[str, str] | None = None) -> tuple[int, str]:
    """``(exit status, message)``: 0 when no newer UTS #58 data is published, 1 when some is, 2 on no answer."""
    versions = shipped() if versions is None else versions
    pinned = newest_final(versions)
    status, body = get(LATEST_UCD, "GET")
    found = re.match(rb"# DerivedAge-(\d+\.\d+\.\d+)\.txt", body) if status == 200 else None
    if found is None:
        return 2, f"::error::could not read the latest Unicode version from https://{HOST}{LATEST_UCD} (HTTP {status})"
    latest = found.group(1).decode("ascii")
    # Every major version after the pinned one up to the latest UCD's, and the one after it (UTS #58
    # data may be published before the UCD's "latest" moves).
    candidates = [f"{major}.0.0" for major in range(_key(pinned)[0] + 1, max(_key(latest)[0], _key(pinned)[0]) + 2)]
    if _key(latest) > _key(pinned) and latest not in candidates:
        candidates.append(latest)
    published = [v for v in sorted(candidates, key=_key) if get(LINK_DATA.format(version=v), "HEAD")[0] == 200]
    if not published:
        return 0, f"UTS #58 data is current: the package ships {pinned}; latest Unicode (UCD) {latest}"
    newest = published[-1]
    draft = f" (it carries the {newest} draft: compare it with the final files)" if newest in versions else ""
    return 1, (
        f"::error::UTS #58 data for Unicode {newest} is published at https://{HOST}{LINK_DATA.format(version=newest)}; "
        f"the package ships {pinned}{draft}. See docs/data.md, 'Another Unicode version'."
    )


def main() -> int:
    try:
        status, message = check()
    except OSError as exc:
        status, message = 2, f"::error::no answer from {HOST}: {exc}"
    print(message)
    return status


if __name__ == "__main__":
    sys.exit(main())
