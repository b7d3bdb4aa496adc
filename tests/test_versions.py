"""``uts58-adapt --version`` and ``data_versions()``: the data the package applies."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version

import idna
import pytest

import uts58_adapt
from uts58_adapt.cli import main

from conftest import REPO


def test_data_versions() -> None:
    v = uts58_adapt.data_versions()
    assert v["unicode"] == "17.0.0"
    assert v["idna"] == idna.__version__ == version("idna")
    assert v["host_characters"] == "17.0.0"
    # The generated table's header names the snapshot it was built from.
    (generated,) = (REPO / "uts58_adapt").glob("**/_tld_data.py")  # wherever the package keeps it
    header = generated.read_text(encoding="utf-8")[:600]
    assert f"Public Suffix List VERSION {v['public_suffix_list']})" in header
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", v["public_suffix_list_date"])
    assert v["public_suffix_list"].startswith(v["public_suffix_list_date"])


def test_version_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    out = capsys.readouterr().out.splitlines()
    v = uts58_adapt.data_versions()
    assert out[0] == f"uts58-adapt {uts58_adapt.__version__}"
    assert out[1].startswith("Unicode 17.0.0 ")
    assert out[2].startswith(
        f"Public Suffix List {v['public_suffix_list']} (snapshot of {v['public_suffix_list_date']})"
    )
    assert out[3].startswith(f"idna {idna.__version__} ")


def test_version_runs_in_a_fresh_process_without_tldextract() -> None:
    code = (
        "import sys\nsys.modules['tldextract'] = None\nsys.modules['requests'] = None\n"
        "from uts58_adapt.cli import main\nmain(['--version'])"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("uts58-adapt ")
