"""`uts58-adapt escape` (placeholder until implemented)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("escape", help="(not implemented yet)")
    parser.set_defaults(func=lambda args: print("not implemented yet") or 2)
