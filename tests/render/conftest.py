"""Fixtures for build tests: the build-site fixture archive, loaded or built."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder.archive.archive import Archive
from site_builder.render.site import BuildResult, build_site
from site_builder.sources.load import load_archive


@pytest.fixture
def site_root(fixture_archive: Callable[[str], Path]) -> Path:
    """A private copy of tests/fixtures/build-site."""
    return fixture_archive("build-site")


@pytest.fixture
def archive(site_root: Path) -> Archive:
    return load_archive(site_root)


@pytest.fixture
def built(site_root: Path) -> tuple[Path, BuildResult]:
    """The build-site fixture built into its `_site`: (output folder, result)."""
    result = build_site(site_root, jobs=1)
    return site_root / "_site", result
