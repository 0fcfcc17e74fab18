#!/usr/bin/python3
"""Checks one run of the soak (ci/soak.sh) against what its console printed.

usage: soak_check.py SCHEMA CONSOLE_LOG REPORT_JSON KIND [EXPECTED_CASES]

KIND is `parent` (the parent was killed: the report was rebuilt by `rmabench report`),
`rank` (a rank was killed: the run went on) or `none`. Checks: the report is schema-valid;
every case whose console line was printed is in the report with the same verdict; a killed
parent's report is incomplete and holds at most one case more than was printed, which is
`interrupted` (or finished, its record written just before the kill); a run whose parent lived is complete with EXPECTED_CASES cases and no
interrupted one. Prints one line `printed=N cases=N interrupted=N complete=B` and exits 0,
or prints what is wrong and exits 1.
"""
import json
import re
import sys

import jsonschema

LINE = re.compile(r"^\[\s*\d+/\d+ [0-9:]+\] (\S+)\s+(\S+)")


def verdict_word(c):
    s, e = c["status"], c["expected"]
    if e == "deadlock":
        return "PASS" if s == "deadlock" else "FAIL" if s == "pass" else s.upper()
    return "PASS" if s == "pass" else s.upper()


def cid_index(report, cid):
    return [c["id"] for c in report["cases"]].index(cid)


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    schema_path, log_path, report_path, kind = argv[1:5]
    expected = int(argv[5]) if len(argv) == 6 else None
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    problems = [f"schema: {'/'.join(map(str, e.path))}: {e.message}"
                for e in jsonschema.Draft202012Validator(schema).iter_errors(report)]
    printed = {}
    with open(log_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                printed[m.group(2)] = m.group(1)
    cases = {c["id"]: c for c in report.get("cases", [])}
    for cid, word in printed.items():
        if cid not in cases:
            problems.append(f"{cid}: printed {word} but not in the report")
        elif verdict_word(cases[cid]) != word:
            problems.append(f"{cid}: printed {word}, report says {verdict_word(cases[cid])}")
    interrupted = [c["id"] for c in report.get("cases", []) if c["status"] == "interrupted"]
    complete = report.get("complete", True)
    extra = [cid for cid in cases if cid not in printed]
    if kind == "parent":
        if complete:
            problems.append("a killed parent's report says complete")
        # One case more than printed: the one in flight (interrupted), or one whose record
        # was written but whose console line was not yet (the record comes first).
        if len(extra) > 1 or (extra and cid_index(report, extra[0]) != len(report["cases"]) - 1):
            problems.append(f"cases not printed before the kill: {extra}")
    else:
        if not complete:
            problems.append("the parent lived, yet the report is incomplete")
        if interrupted:
            problems.append(f"interrupted without a stop: {interrupted}")
        if expected is not None and len(cases) != expected:
            problems.append(f"{len(cases)} cases in the report, {expected} expected")
        if extra:
            problems.append(f"in the report but never printed: {extra}")
    print(f"printed={len(printed)} cases={len(cases)} interrupted={len(interrupted)} "
          f"complete={str(complete).lower()}")
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
