"""A one-project archive goes straight to its records: no one-card Projects grid."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from site_builder.authoring.new import new_record
from site_builder.authoring.scaffold import init_archive
from site_builder.config.site import load_config
from site_builder.render.site import build_site


def test_the_home_page_of_a_one_project_archive_lists_its_records(tmp_path: Path) -> None:
    root = tmp_path / "acme"
    init_archive(root, today=dt.date(2026, 7, 1))
    config, _ = load_config(root)
    assert config is not None
    new_record(config, "architecture", "adr", "Use PostgreSQL for orders")
    project = root / "content" / "architecture" / "_project.yml"
    project.write_text(project.read_text().replace("owners: []", "owners: [ada]"))
    build_site(root, jobs=1)
    home = (root / "_site" / "index.html").read_text(encoding="utf-8")
    assert 'class="cards"' not in home and "projects-title" not in home
    assert home.count('<li class="row') == 2
    assert "Record architecture decisions" in home and "Use PostgreSQL for orders" in home
    assert "data-filters" in home  # filterable, as the project page is
    assert '>Home</a></li>' in home  # the header names what the first item now is
    # The project itself is named, linked and described, as its card was.
    assert ('<p class="hero__project">Project <a href="architecture/">Architecture</a>: '
            'Decisions that shape the system as a whole · Owners: ') in home
    assert "ada" in home.split('class="hero__project"')[1].split("</p>")[0]


def test_an_archive_with_two_projects_keeps_the_grid(tmp_path: Path) -> None:
    root = tmp_path / "acme"
    init_archive(root)
    config, _ = load_config(root)
    assert config is not None
    new_record(config, "sre", "adr", "Define SLOs", create_project=True)
    build_site(root, jobs=1)
    home = (root / "_site" / "index.html").read_text(encoding="utf-8")
    assert 'class="cards"' in home and home.count('class="card"') == 2
    assert '>Projects</a></li>' in home
