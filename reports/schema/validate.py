#!/usr/bin/python3
"""Validates an rmabench JSON report against reports/schema/report.schema.json.

usage: validate.py SCHEMA REPORT [--expect-invalid]

Exits 0 when the report is valid, 1 when it is not (every violation is printed).
With --expect-invalid the outcome is reversed: the tests use it to prove that the
schema rejects a broken report. Needs python3-jsonschema (ci/setup.sh installs it).
"""
import json
import sys

import jsonschema


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    expect_invalid = "--expect-invalid" in argv[1:]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        schema = json.load(f)
    with open(args[1], encoding="utf-8") as f:
        report = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema).iter_errors(report), key=lambda e: list(e.path))
    for e in errors:
        where = "/".join(str(p) for p in e.path) or "(document)"
        print(f"{args[1]}: {where}: {e.message}")
    if expect_invalid:
        if not errors:
            print(f"{args[1]}: expected schema violations, found none", file=sys.stderr)
            return 1
        return 0
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
