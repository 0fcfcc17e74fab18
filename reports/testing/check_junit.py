#!/usr/bin/python3
"""Parses a JUnit XML file and checks that its count attributes match its elements.

usage: check_junit.py JUNIT_XML EXPECTED_TESTS

For <testsuites> and every <testsuite>: tests, failures, errors and skipped equal the
number of <testcase>, <failure>, <error> and <skipped> elements under it, and the total
number of test cases is EXPECTED_TESTS. Exits 1 with a message on the first mismatch.
"""
import sys
import xml.etree.ElementTree as ET


def counts(node):
    cases = node.iter("testcase")
    found = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for case in cases:
        found["tests"] += 1
        found["failures"] += len(case.findall("failure"))
        found["errors"] += len(case.findall("error"))
        found["skipped"] += len(case.findall("skipped"))
    return found


def check(node, label):
    found = counts(node)
    for attr, n in found.items():
        if node.get(attr) != str(n):
            sys.exit(f"{label}: {attr}=\"{node.get(attr)}\" but {n} found")
    return found


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    root = ET.parse(argv[1]).getroot()
    if root.tag != "testsuites":
        sys.exit(f"root element is <{root.tag}>, expected <testsuites>")
    total = check(root, "testsuites")
    for suite in root.findall("testsuite"):
        check(suite, f"testsuite {suite.get('name')}")
        for case in suite.findall("testcase"):
            if not case.get("name") or not case.get("classname") or case.get("time") is None:
                sys.exit(f"testcase without name, classname or time in {suite.get('name')}")
    if total["tests"] != int(argv[2]):
        sys.exit(f"{total['tests']} test cases, expected {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
