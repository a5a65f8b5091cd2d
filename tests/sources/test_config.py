"""`sources:` entries in site.yml: what is accepted, and where problems are reported."""

from __future__ import annotations

from site_builder.config.site import SourceSpec, load_config
from tests.sources.conftest import make_archive


def _load(tmp_path, sources: str):
    return load_config(make_archive(tmp_path / "site", sources))


def test_entries_are_read_with_the_line_each_starts_at(tmp_path):
    config, findings = _load(tmp_path, """
        - path: ../platform/decisions
        - repo: https://github.com/acme/payments.git
          ref: main
          dir: docs/decisions
          name: payments
          edit_url: https://github.com/acme/payments/edit/main/docs/decisions/{path}
        """)

    assert findings == []
    assert config.sources == (
        SourceSpec(path="../platform/decisions", line=3),
        SourceSpec(repo="https://github.com/acme/payments.git", ref="main",
                   dir="docs/decisions", name="payments", line=4,
                   edit_url="https://github.com/acme/payments/edit/main/docs/decisions/{path}"),
    )


def test_unusable_entries_are_errors_at_their_own_line(tmp_path):
    config, findings = _load(tmp_path, """
        - path: shared
          ref: main
        - repo: https://example.org/a.git
          name: "../escape"
        - repo: https://example.org/b.git
          dir: ../../etc
        - {repo: https://example.org/c.git, name: c}
        - {repo: https://example.org/d.git, name: c}
        - {path: x, repo: y}
        - repo: ""
        """)

    assert [(f.line, f.message) for f in findings] == [
        (3, "'ref' and 'dir' only apply to a 'repo' source; a 'path' source is read as it is"),
        (5, "source name '../escape' must be letters, digits, '.', '_' or '-' "
            "(it names the source's folder under .site-builder/sources/)"),
        (7, "'dir' must be a folder inside the repository, not '../../etc'"),
        (10, "source name 'c' is already used by the source at line 9"),
        (11, "every source needs exactly one of 'path' or 'repo'"),
        (12, "a source's 'path' or 'repo' must not be empty"),
    ]
    assert [s.name for s in config.sources] == ["c"]


def test_labels_never_show_credentials(tmp_path):
    spec = SourceSpec(repo="https://bot:t0ken@git.example.org/x.git", ref="v2")
    assert spec.label == "https://git.example.org/x.git@v2"
