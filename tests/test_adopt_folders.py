"""`init --from` finds decision folders by their files, anywhere in a real git repository."""

from __future__ import annotations

from pathlib import Path

from tests.archive.test_formats_loading import git
from tests.conftest import run_cli


def nygard(number: int, title: str) -> str:
    return (f"# {number}. {title}\n\nDate: 2024-01-0{number}\n\n## Status\n\nAccepted\n\n"
            "## Context\n\nWhy.\n")


def madr(title: str) -> str:
    return f"---\nstatus: accepted\ndate: 2023-05-01\n---\n\n# {title}\n\nBecause.\n"


def log4brains(title: str) -> str:
    return f"# {title}\n\n- Status: accepted\n- Date: 2022-03-04\n\n## Context\n\nSo.\n"


def write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)


def repository(tmp_path: Path) -> Path:
    """A repository with records in four unusual places, a vendored copy and a build copy."""
    repo = tmp_path / "shop"
    write(repo / "docs/reference/adr", {"0001-use-go.md": nygard(1, "Use Go"),
                                        "0002-use-rds.md": nygard(2, "Use RDS"),
                                        "README.md": "# Decisions\n\nThe index.\n"})
    write(repo / "architecture/decisions", {"0001-use-kafka.md": madr("Use Kafka"),
                                            "0002-use-avro.md": madr("Use Avro"),
                                            "adr-template-minimal.md": madr("Title")})
    write(repo / "adr", {"20220304-use-rest.md": log4brains("Use REST"),
                         "20220305-use-grpc.md": log4brains("Use gRPC")})
    write(repo / "services/billing/docs/adr", {"0001-bill-monthly.md": nygard(1, "Bill"),
                                               "0002-use-stripe.md": nygard(2, "Stripe")})
    for vendored in ("node_modules/adr-kit/docs/adr", "vendor/lib/doc/adr", "dist/adr",
                     ".venv/lib/adr"):
        write(repo / vendored, {"0001-a.md": nygard(1, "A"), "0002-b.md": nygard(2, "B")})
    # An archive of site-builder's own keeps native records, read by its own site.yml.
    write(repo / "handbook", {"site.yml": "title: Handbook\n"})
    write(repo / "handbook/content/ops/adr", {"0001-a.md": madr("A"), "0002-b.md": madr("B")})
    # A tool's own test data (thomvaill/log4brains) holds made-up records, not decisions.
    for data in ("packages/core/integration-tests/ro-project/docs/adr", "tests/fixtures/adr"):
        write(repo / data, {"20200101-a.md": log4brains("A"), "20200102-b.md": log4brains("B")})
    # One record in a folder named for decisions (NASA-IMPACT/nasa-apt `adr/`).
    write(repo / "tools/decisions", {"001-pdf-generation.md":
                                     "# 1. Generate PDFs\n- Date: 2023-02-15\n\n## Context\n"})
    # Numbered notes without a Status or Date are not decision records.
    write(repo / "notes", {"01-monday.md": "# Monday\n\nText.\n",
                           "02-tuesday.md": "# Tuesday\n\nText.\n"})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "records", date="2024-02-02T12:00:00+00:00")
    return repo


def found(stdout: str) -> dict[str, str]:
    return {line.split()[1].rstrip(":"): line for line in stdout.splitlines()
            if line.startswith("found ")}


def test_folders_are_found_by_their_files_and_vendored_ones_are_skipped(
        tmp_path: Path) -> None:
    repo = repository(tmp_path)
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    folders = found(result.stdout)
    assert sorted(folders) == ["adr", "architecture/decisions", "docs/reference/adr",
                               "services/billing/docs/adr", "tools/decisions"]
    assert "format nygard" in folders["docs/reference/adr"]
    assert "format madr" in folders["architecture/decisions"]
    assert "format log4brains" in folders["adr"]
    assert "project billing" in folders["services/billing/docs/adr"]
    assert "skipped docs/reference/adr/README.md: a page of the folder, not a record" \
        in result.stdout
    assert "skipped architecture/decisions/adr-template-minimal.md: a template (its name says so)" \
        in result.stdout
    assert "check passes: 9 records" in result.stderr
    site = (repo / "site.yml").read_text()
    assert "node_modules" not in site and "vendor" not in site and ".venv" not in site
    assert "integration-tests" not in site and "fixtures" not in site
    assert "handbook" not in site
    assert run_cli("build", "--root", str(repo)).returncode == 0


def test_folder_names_the_folders_to_adopt(tmp_path: Path) -> None:
    repo = repository(tmp_path)
    result = run_cli("init", "--from", str(repo), "--folder", "adr",
                     "--folder", "docs/reference/adr")
    assert result.returncode == 0, result.stderr
    assert sorted(found(result.stdout)) == ["adr", "docs/reference/adr"]
    assert "check passes: 4 records" in result.stderr


def test_a_folder_that_is_none_writes_nothing(tmp_path: Path) -> None:
    repo = repository(tmp_path)
    result = run_cli("init", "--from", str(repo), "--folder", "docs/missing")
    assert result.returncode == 2
    assert "--folder docs/missing is not a folder of" in result.stderr
    assert not (repo / "site.yml").exists()
    assert "Traceback" not in result.stderr
    alone = run_cli("init", str(tmp_path / "new"), "--folder", "adr")
    assert alone.returncode == 2
    assert "use it with --from DIR" in alone.stderr
    assert not (tmp_path / "new").exists()


def test_a_stale_log4brains_yml_is_named_in_one_line(tmp_path: Path) -> None:
    repo = tmp_path / "web"
    write(repo, {".log4brains.yml": "project:\n  name: web\n  adrFolder: ./docs/old-adr\n",
                 "README.md": "# Web\n"})
    git(repo, "init", "-q")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 2
    [line] = [line for line in result.stderr.splitlines() if "log4brains" in line]
    assert ".log4brains.yml names ./docs/old-adr for 'web', which does not exist" in line
    assert not (repo / "site.yml").exists()


def test_a_stale_log4brains_yml_beside_found_folders_is_a_note(tmp_path: Path) -> None:
    repo = repository(tmp_path)
    (repo / ".log4brains.yml").write_text("project:\n  name: shop\n  adrFolder: ./gone\n")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    assert "note: .log4brains.yml names ./gone for 'shop', which does not exist" \
        in result.stdout
    assert len(found(result.stdout)) == 5


def test_init_says_which_files_it_leaves_out_and_why_as_build_reads_them(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo / "docs/adr", {
        "0000-short-title.md": "# [short title]\n\n- Status: [proposed | accepted]\n"
                               "- Date: [YYYY-MM-DD when decided]\n",
        "xxxx-template.md": "# T\n", "0010-template-engine.md": nygard(1, "Use Jinja"),
        "0001-use-go.md": nygard(1, "Use Go"),
        # A record whose template lines were never filled in is still a record.
        "0002-use-rds.md": "# 2. Use RDS\n\nDate: <!-- Today's date -->\n\n## Status\n\n"
                           "Accepted\n",
        "index.md": "# Index\n", "install.md": "# Install\n", "_hidden.md": "x\n",
        "diagram.png": "png"})
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "records", date="2024-02-02T12:00:00+00:00")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    skipped = {line.split()[1].rstrip(":"): line.partition(": ")[2]
               for line in result.stdout.splitlines() if line.startswith("skipped ")}
    assert skipped == {
        "docs/adr/0000-short-title.md": "a template (a 0000 file with unfilled placeholders)",
        "docs/adr/xxxx-template.md": "a template (its name says so)",
        "docs/adr/index.md": "a page of the folder, not a record",
        "docs/adr/install.md": "a page, not a record (no number or date in its name, and no "
                               "status)",
    }
    built = run_cli("build", "--root", str(repo), "-v")
    assert built.returncode == 0, built.stderr
    for path, why in skipped.items():
        assert f"{path}: {why}" in built.stdout + built.stderr


def test_a_record_that_links_out_of_its_folder_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text(nygard(2, "Secret"))
    repo = tmp_path / "repo"
    write(repo / "history", {"0001-use-go.md": nygard(1, "Use Go")})
    (repo / "history/0002-secret.md").symlink_to(outside)
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 2  # one readable record is not a decision folder
    assert "no decision folder found" in result.stderr


def test_the_workflow_fetches_the_whole_history_and_publishes_the_default_branch(
        tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write(repo / "docs/adr", {"0001-use-go.md": nygard(1, "Use Go"),
                              "0002-use-rds.md": nygard(2, "Use RDS")})
    git(repo, "init", "-q", "-b", "trunk")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "records", date="2024-02-02T12:00:00+00:00")
    result = run_cli("init", "--from", str(repo))
    assert result.returncode == 0, result.stderr
    workflow = (repo / ".github/workflows/decisions.yml").read_text()
    # A shallow checkout would date every record without a Date by its last commit.
    assert "fetch-depth: 0" in workflow
    assert "branches: [trunk]" in workflow and "refs/heads/trunk" in workflow
