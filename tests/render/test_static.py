"""static/: copied to the output root as it is, kept by incremental builds, and a
path a generated file takes is a check error."""

from __future__ import annotations

from pathlib import Path

from site_builder.archive.static import generated
from site_builder.render.site import BuildRefused, build_site
from site_builder.sources.load import load_archive
from tests.conftest import run_cli

STATIC = {"CNAME": b"decisions.acme.dev\n", ".nojekyll": b"",
          ".well-known/security.txt": b"Contact: mailto:sec@acme.dev\n",
          "google0123abcd.html": b"google-site-verification: google0123abcd.html",
          "files/handbook.pdf": bytes(range(256))}


def add_static(root: Path, files: dict[str, bytes] = STATIC) -> None:
    for rel, data in files.items():
        (root / "static" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "static" / rel).write_bytes(data)


def test_static_files_are_copied_as_they_are(site_root: Path) -> None:
    config = site_root / "site.yml"
    config.write_text(config.read_text(encoding="utf-8") + "url: https://acme.example\n",
                      encoding="utf-8")
    add_static(site_root)
    build_site(site_root, jobs=1)
    out = site_root / "_site"
    for rel, data in STATIC.items():
        assert (out / rel).read_bytes() == data, rel
    # A verification page is no page of the site.
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://acme.example/</loc>" in sitemap
    assert "google0123abcd" not in sitemap


def test_incremental_builds_keep_static_files_and_remove_others(site_root: Path) -> None:
    add_static(site_root)
    build_site(site_root, jobs=1)
    out = site_root / "_site"
    (out / "stray.txt").write_text("put here by hand\n")
    record = next((site_root / "content").rglob("0001-*.md"))
    record.write_text(record.read_text(encoding="utf-8") + "\nOne more line.\n",
                      encoding="utf-8")
    result = build_site(site_root, jobs=1)
    assert not result.up_to_date
    assert not (out / "stray.txt").exists()  # the build did not write it, static/ lacks it
    for rel, data in STATIC.items():
        assert (out / rel).read_bytes() == data, rel
    # A new static file is an input: the next build is not "up to date".
    add_static(site_root, {"robots-extra.txt": b"x"})
    assert not build_site(site_root, jobs=1).up_to_date
    assert (out / "robots-extra.txt").read_bytes() == b"x"
    # A removed one goes from the output too.
    (site_root / "static" / "CNAME").unlink()
    build_site(site_root, jobs=1)
    assert not (out / "CNAME").exists()


def test_a_static_file_in_a_generated_path_is_a_check_error(site_root: Path) -> None:
    add_static(site_root, {"index.html": b"<p>mine</p>", "assets/site.css": b"x"})
    result = run_cli("check", "--root", str(site_root))
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if "static file" in line]
    assert lines == [
        f"{site_root / 'static' / 'assets/site.css'}:1: error: static file 'assets/site.css' "
        "has the path of a file the build writes itself; rename or remove it",
        f"{site_root / 'static' / 'index.html'}:1: error: static file 'index.html' has the "
        "path of a file the build writes itself; rename or remove it"]
    try:
        build_site(site_root, jobs=1)
    except BuildRefused:
        pass
    else:
        raise AssertionError("the build went ahead")


def test_a_record_page_path_is_taken(site_root: Path) -> None:
    record = load_archive(site_root).records[0]
    add_static(site_root, {f"{record.id}.md": b"x"})
    messages = [f.message for f in load_archive(site_root).findings]
    assert f"static file '{record.id}.md' has the path of a file the build writes itself; " \
           "rename or remove it" in messages


def test_every_file_a_build_writes_is_known_as_generated(built: tuple[Path, object],
                                                         site_root: Path) -> None:
    """The rule `check` uses covers every path a real build writes (except the files
    bodies link to, which a static file of the same name replaces)."""
    out, _ = built
    archive = load_archive(site_root)
    records = {r.id for r in archive.records}
    written = [p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()]
    linked = [rel for rel in written if (site_root / "content" / rel).is_file()]
    missed = [rel for rel in written
              if rel not in linked and not generated(rel, archive.projects, records)]
    assert linked  # the fixture has a linked picture, and it is not counted
    assert written and missed == []


def test_static_can_name_another_folder(site_root: Path) -> None:
    config = site_root / "site.yml"
    config.write_text(config.read_text(encoding="utf-8") + "static: public-files\n",
                      encoding="utf-8")
    (site_root / "public-files").mkdir()
    (site_root / "public-files" / "CNAME").write_text("a.example\n")
    build_site(site_root, jobs=1)
    assert (site_root / "_site" / "CNAME").read_text() == "a.example\n"


def test_a_static_folder_that_overlaps_the_output_is_refused(site_root: Path) -> None:
    config = site_root / "site.yml"
    config.write_text(config.read_text(encoding="utf-8") + "static: _site\n", encoding="utf-8")
    (site_root / "_site").mkdir()
    (site_root / "_site" / "CNAME").write_text("a.example\n")
    messages = [f.message for f in load_archive(site_root).findings]
    assert messages == ["'static: _site' and 'output: _site' overlap; keep static files in a "
                        "folder of their own"]
