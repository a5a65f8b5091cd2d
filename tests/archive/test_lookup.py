"""Identity and lookup: ids, refs, short ids, slugs, and the two failure messages."""

from __future__ import annotations

import pytest

from site_builder.archive.archive import Archive, LookupFailed
from site_builder.sources.load import load_archive
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def archive() -> Archive:
    # Loading only reads, so the fixture folder itself can be used.
    return load_archive(FIXTURES / "lookup")


def test_identity_of_a_record(archive: Archive) -> None:
    record = archive.get("sre/adr/0002-define-slos")
    assert record.id == "sre/adr/0002-define-slos"
    assert record.ref == "SRE-ADR-0002"
    assert record.short_id == "sre/adr/0002"
    assert record.slug == "0002-define-slos"
    assert (record.project, record.type, record.number) == ("sre", "adr", "0002")
    assert record.rel_path == "content/sre/adr/0002-define-slos.md"
    assert record.path == (FIXTURES / "lookup/content/sre/adr/0002-define-slos.md").resolve()


@pytest.mark.parametrize("reference", [
    "sre/adr/0002-define-slos",        # full id
    "sre/adr/0002-define-slos.md",     # the file name as written in links
    "SRE/ADR/0002-Define-SLOs",        # ids are matched without regard to case
    "sre/adr/0002",                    # short id
    "sre/adr/2",                       # short id without the zeros
    "SRE-ADR-0002",                    # ref
    "sre-adr-0002",                    # ref, any case
    "Sre-Adr-0002",
    "SRE-ADR-2",                       # ref without the zeros
    "  SRE-ADR-0002 ",                 # surrounding blanks are ignored
])
def test_every_form_names_the_same_record(archive: Archive, reference: str) -> None:
    assert archive.get(reference).id == "sre/adr/0002-define-slos"
    assert archive.resolve(reference).id == "sre/adr/0002-define-slos"


def test_a_bare_slug_names_a_record_when_it_is_unique(archive: Archive) -> None:
    assert archive.get("0001-on-call-rotation").id == "sre/rfc/0001-on-call-rotation"


@pytest.mark.parametrize(("reference", "message"), [
    ("sre/adr/1", '"sre/adr/1" is ambiguous: sre/adr/0001-a, sre/adr/0001-b.'),
    ("SRE-ADR-0001", '"SRE-ADR-0001" is ambiguous: sre/adr/0001-a, sre/adr/0001-b.'),
    ("0002-define-slos",
     '"0002-define-slos" is ambiguous: sre/adr/0002-define-slos, web/adr/0002-define-slos.'),
])
def test_two_candidates_are_ambiguous(archive: Archive, reference: str, message: str) -> None:
    with pytest.raises(LookupFailed) as failed:
        archive.get(reference)
    assert str(failed.value) == message
    assert archive.resolve(reference) is None


@pytest.mark.parametrize("reference", [
    "1", "0001", "2", "0002",          # a bare number never matches
    "define-slos",                     # a slug includes its number
    "sre/adr/0009",
    "SRE-RFC-0002",
    "web/adr/0003-drafted",            # drafts are never listed or served
    "0003-drafted",
    "",
])
def test_no_match(archive: Archive, reference: str) -> None:
    with pytest.raises(LookupFailed) as failed:
        archive.get(reference)
    assert str(failed.value) == (f'No record matches "{reference}". '
                                 "Use search_records to find ids.")
    assert archive.resolve(reference) is None


def test_candidates_lists_every_record_a_reference_could_name(archive: Archive) -> None:
    assert archive.candidates("sre/adr/1") == ["sre/adr/0001-a", "sre/adr/0001-b"]
    assert archive.candidates("1") == []


def test_projects_come_from_their_folders_and_project_files(archive: Archive) -> None:
    sre, web = archive.projects["sre"], archive.projects["web"]
    assert (sre.name, sre.description, sre.owners, sre.order) == (
        "Site reliability", "Keeping things up", ("ana", "bo"), 1)
    assert (web.name, web.description, web.owners, web.order) == ("web", "", (), None)
    assert list(archive.projects) == ["sre", "web"]  # ordered projects first


def test_drafts_are_left_out(archive: Archive) -> None:
    assert "web/adr/0003-drafted" not in archive.by_id
    assert len(archive.records) == 5

