"""`site-builder new PROJECT TYPE "Title"`: the next-numbered record, from the template."""

from __future__ import annotations

import argparse

from site_builder.base.findings import display_path
from site_builder.cli.common import Subcommands, fail, find_root, load_config_or_fail
from site_builder.errors import OK, USAGE, UsageError


def register(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("new", help="write the next-numbered record", parents=[common])
    p.add_argument("project")
    p.add_argument("type", help="record type folder, e.g. adr or rfc")
    p.add_argument("title")
    p.add_argument("--create-project", action="store_true",
                   help="start the project folder if it does not exist")
    p.set_defaults(func=cmd_new)


def cmd_new(args: argparse.Namespace) -> int:
    from site_builder.authoring.new import NewRecordError, check_native, new_record

    config = load_config_or_fail(find_root(args.root))
    try:
        check_native(config, args.project)
    except NewRecordError as exc:
        raise UsageError(str(exc)) from None
    try:
        path = new_record(config, args.project, args.type, args.title,
                          create_project=args.create_project)
    except NewRecordError as exc:
        fail(str(exc))
        return USAGE
    print(display_path(path))
    return OK
