#!/usr/bin/env python3
"""check_names.py — the model and the code name the same packet types and flags.

Reads the enumerators of rma::PacketType (rma_impl/include/rma/counters.hpp, without the
count_ sentinel) and of rma::progress::PacketFlag (rma_impl/progress/packet.hpp, without the
flag_ prefix's absence: names kept as spelled), and the mtype and flag_* names of
model/packet.pml. Fails, naming the difference, when a name is on one side only, or when a
name the model declares is neither used by a model file nor listed as not_modelled.

  python3 model/check_names.py [--root DIR]   (DIR: the source tree, default this checkout)
  python3 model/check_names.py --self-test    (a scratch copy of the headers with one more
                                              packet type, then one more flag: both must fail)
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def enum_names(text, enum_head, where):
    m = re.search(enum_head + r"[^{]*\{(.*?)\};", text, re.S)
    if not m:
        sys.exit(f"check_names.py: {where}: no '{enum_head}' found")
    body = re.sub(r"//[^\n]*", "", m.group(1))
    names = [re.split(r"[=\s]", e.strip())[0] for e in body.split(",")]
    return [n for n in names if n and n != "count_"]


def self_test(root):
    """The check notices drift: a scratch tree gaining a packet type, then a flag, fails it."""
    edits = (("rma_impl/include/rma/counters.hpp", "  cts,", "  cts,\n  scratch_type,"),
             ("rma_impl/progress/packet.hpp", "  flag_error = 1u << 7,",
              "  flag_error = 1u << 7,\n  flag_scratch = 1u << 8,"))
    for path, old, new in edits:
        with tempfile.TemporaryDirectory() as d:
            for rel, _, _ in edits:
                os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
                shutil.copy(os.path.join(root, rel), os.path.join(d, rel))
            text = open(os.path.join(d, path)).read()
            if old not in text:
                print(f"check_names.py: self-test: '{old.strip()}' not in {path}", file=sys.stderr)
                return 1
            open(os.path.join(d, path), "w").write(text.replace(old, new, 1))
            p = subprocess.run([sys.executable, __file__, "--root", d], capture_output=True,
                               text=True)
            added = new.split("\n")[1].split("=")[0].strip(" ,")
            if p.returncode == 0 or added not in p.stderr:
                print(f"check_names.py: self-test: adding '{added}' to {path} went unnoticed",
                      file=sys.stderr)
                return 1
            print(f"self-test: adding '{added}' to {path} fails the check: {p.stderr.strip()}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.dirname(HERE))
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test(a.root)
    counters = os.path.join(a.root, "rma_impl/include/rma/counters.hpp")
    packet = os.path.join(a.root, "rma_impl/progress/packet.hpp")
    types = enum_names(open(counters).read(), r"enum class PacketType", counters)
    flags = enum_names(open(packet).read(), r"enum PacketFlag", packet)

    pml = open(os.path.join(HERE, "packet.pml")).read()
    m = re.search(r"mtype\s*=\s*\{(.*?)\}", pml, re.S)
    mtypes = [n.strip() for n in m.group(1).split(",") if n.strip()]
    mflags = re.findall(r"#define\s+(flag_\w+)", pml)
    not_modelled = set()
    for line in re.findall(r"not_modelled:([^\n]*)", pml):
        not_modelled.update(line.split())

    errors = []
    for what, code, model, where in (("packet type", types, mtypes, counters),
                                     ("packet flag", flags, mflags, packet)):
        for n in sorted(set(code) - set(model)):
            errors.append(f"{what} '{n}' is in {where} but not in model/packet.pml")
        for n in sorted(set(model) - set(code)):
            errors.append(f"{what} '{n}' is in model/packet.pml but not in {where}")
    models = ""
    for f in glob.glob(os.path.join(HERE, "**/*.pml"), recursive=True):
        if os.path.basename(f) != "packet.pml":
            text = re.sub(r"/\*.*?\*/", "", open(f).read(), flags=re.S)
            models += re.sub(r"//[^\n]*", "", text)
    for n in mtypes + mflags:
        if n not in not_modelled and not re.search(r"\b" + re.escape(n) + r"\b", models):
            errors.append(f"'{n}' is neither used by a model nor listed as not_modelled "
                          "in model/packet.pml")
    for e in errors:
        print("check_names.py: " + e, file=sys.stderr)
    if errors:
        return 1
    print(f"check_names.py: {len(types)} packet types and {len(flags)} flags, "
          f"model and code agree ({len(not_modelled)} declared not modelled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
