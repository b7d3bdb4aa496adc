"""`uts58-adapt report` (placeholder until implemented)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("report", help="(not implemented yet)")
    parser.set_defaults(func=lambda args: print("not implemented yet") or 2)
