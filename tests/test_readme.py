"""The README's two commands are the ones CI and new users run."""

from __future__ import annotations

import re

from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
CI = (REPO / ".ci" / "run").read_text(encoding="utf-8")


def _first_block_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", README, re.S)
    assert block, "README.md must open with a sh code block"
    return [line for line in block.group(1).splitlines() if line and not line.startswith("#")]


def test_readme_opens_with_exactly_two_commands():
    commands = _first_block_commands()
    assert len(commands) == 2, commands
    main_job, tests = commands
    assert "uts58-adapt report --sample" in main_job
    assert "pytest" in tests and "[test]" in tests


def test_ci_runs_the_readme_test_command_verbatim():
    tests = _first_block_commands()[1]
    assert tests in CI, "the test command in README.md and in .ci/run differ"
    assert "UTS58_REQUIRE_CONFORMANCE=1" in CI
