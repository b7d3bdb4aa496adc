"""Importing ``uts58_adapt`` (and using its core) never imports the optional libraries."""

from __future__ import annotations

import subprocess
import sys

OPTIONAL = ("bleach", "django", "jinja2", "mistune", "markdown", "marko", "pymdownx", "nh3", "html5lib", "markupsafe")
OPTIONAL += ("cmarkgfm", "readme_renderer")


def _imported_after(code: str) -> list[str]:
    probe = f"import sys\n{code}\nprint(' '.join(m for m in {OPTIONAL!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_import_does_not_import_optional_libraries() -> None:
    assert _imported_after("import uts58_adapt") == []


def test_core_entry_points_do_not_import_them() -> None:
    code = (
        "import uts58_adapt\n"
        "uts58_adapt.detect('x.com')\n"
        "uts58_adapt.linkify_html('<b>x.com</b>')\n"
        "from linkify_it import LinkifyIt\n"
        "uts58_adapt.wrap(LinkifyIt())\n"
        "import uts58_adapt.backends, uts58_adapt.integrations"
    )
    assert _imported_after(code) == []


def test_the_probe_can_fail() -> None:
    assert "bleach" in _imported_after("import uts58_adapt.backends.bleach as b\nb.BleachBackend()")


def test_tldextract_is_not_imported_at_run_time() -> None:
    """tldextract (and requests, which it imports) is only the generator's source of the PSL snapshot."""
    code = (
        "import sys\n"
        "import uts58_adapt\n"
        "uts58_adapt.detect('see example.com/αβ, mail σ@example.gr', backend='linkify-it')\n"
        "uts58_adapt.detect('see example.com/αβ, mail σ@example.gr', backend='urlextract')\n"
        "uts58_adapt.data_versions()\n"
        "from urlextract import URLExtract\n"
        "uts58_adapt.wrap(URLExtract()).find_urls('x.com/a')\n"
        "from uts58_adapt.cli import main\n"
        "main(['escape', 'https://x.com/%CE%B1'])\n"
        "print(' '.join(m for m in ('tldextract', 'requests') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == ""


def test_the_tldextract_probe_can_fail() -> None:
    code = "import sys\nimport tldextract\nprint('tldextract' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "True\n"


def test_the_marko_probe_can_fail() -> None:
    """The integration module imports marko (so the check above has something to catch)."""
    assert "marko" in _imported_after("import uts58_adapt.integrations.marko")
