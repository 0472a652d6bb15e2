"""Shared fixtures and options for the test suite.

``pytest --update-golden`` rewrites the expected outputs under ``tests/golden/`` from the
current code instead of comparing against them (see ``tests/cli/test_check.py``).
"""

from __future__ import annotations

import os

# Qt needs no screen for the tests: use its offscreen platform unless told otherwise.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The tests never read the user's imported card database (replayer/cards): none unless a test makes one.
os.environ["REPLAYER_CARDS_DB"] = ""
# The tests' expected outputs are English: the user's locale (LANG=de_DE…) does not choose their language.
os.environ["REPLAYER_LANG"] = "en"

import pytest  # noqa: E402


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/ from the current output of `replayer check` on the samples",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
