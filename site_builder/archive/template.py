"""The template `site-builder new` writes, and the placeholder text `check` warns about.

A record whose description or body still holds the template's own sentences was started and
never written; `check` says so (a warning, so `--strict` refuses to publish it).
"""

from __future__ import annotations

DESCRIPTION = "One line: what was decided, and why."
# Lines of the template's body (below) that a written record no longer has.
BODY_PLACEHOLDERS = (
    "What is the problem, and why does it need a decision now? Link related records with",
    'Chosen option: "…", because …',
)

# The front matter: `fields` is a line per declared field to fill in, or nothing.
FRONT_MATTER = """\
---
title: {title}
status: {status}
date: {date}
description: {description}
authors: {authors}
deciders: []
tags: {tags}
{fields}---
"""

BODY = """\

## Context and Problem Statement

What is the problem, and why does it need a decision now? Link related records with
relative links, e.g. `[the earlier decision](../adr/0001-example.md)`.

## Considered Options

1. Option one
2. Option two

## Decision Outcome

Chosen option: "…", because …

## Consequences

- Good, because …
- Bad, because …
"""

# The body's sections, in order: what a record of a project without records of its own has.
SECTIONS = tuple(line[3:] for line in BODY.splitlines() if line.startswith("## "))
