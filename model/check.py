#!/usr/bin/env python3
"""check.py — runs the Spin checks of the am protocol model (model/ch3/*.pml for --protocol
ch3, model/fewest/*.pml for the default protocol fewest).

Each check is one pan run: the model generated with spin -a (with the check's -D switches),
compiled with gcc, run exhaustively. A check of the correct model passes when pan reports
no error; a mutation check passes when pan finds the violation its expectation names
(model/expect/NAME.txt), and the counterexample trail is replayed with spin -t and kept in
the work directory. Prints one line per check: states stored, transitions, memory.

  python3 model/check.py --list
  python3 model/check.py [--work DIR] NAME...      (no NAME: every check)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name: (model, -D switches, kind); kind "safety" (assertions, invalid end states) or an LTL
# property name (acceptance cycles of its never claim). MODE1 splits a model's shapes over runs.
CHECKS = {
    "passive_safety_unlock": ("ch3/passive.pml", ["MODE1=0"], "safety"),
    "passive_safety_flush": ("ch3/passive.pml", ["MODE1=1"], "safety"),
    "passive_safety_flush_local": ("ch3/passive.pml", ["MODE1=2"], "safety"),
    "passive_live_unlock": ("ch3/passive.pml", ["MODE1=0"], "epochs_complete"),
    "passive_live_flush": ("ch3/passive.pml", ["MODE1=1"], "epochs_complete"),
    "passive_live_flush_local": ("ch3/passive.pml", ["MODE1=2"], "epochs_complete"),
    "fence_safety": ("ch3/fence.pml", [], "safety"),
    "fence_live": ("ch3/fence.pml", [], "epochs_complete"),
    "pscw_safety": ("ch3/pscw.pml", [], "safety"),
    "pscw_live": ("ch3/pscw.pml", [], "epochs_complete"),
    # the fewest protocol (the default): ops held at the target until the grant or the post
    "fewest_passive_safety_unlock": ("fewest/passive.pml", ["MODE1=0"], "safety"),
    "fewest_passive_safety_flush": ("fewest/passive.pml", ["MODE1=1"], "safety"),
    "fewest_passive_safety_flush_local": ("fewest/passive.pml", ["MODE1=2"], "safety"),
    "fewest_passive_live_unlock": ("fewest/passive.pml", ["MODE1=0"], "epochs_complete"),
    "fewest_passive_live_flush": ("fewest/passive.pml", ["MODE1=1"], "epochs_complete"),
    "fewest_passive_live_flush_local": ("fewest/passive.pml", ["MODE1=2"], "epochs_complete"),
    "fewest_pscw_safety": ("fewest/pscw.pml", [], "safety"),
    # fence: the messages exchange (auto's choice for 3 ranks) and rounds
    "fewest_fence_safety_messages": ("fewest/fence.pml", [], "safety"),
    "fewest_fence_safety_rounds": ("fewest/fence.pml", ["ROUNDS"], "safety"),
    "fewest_fence_live_messages": ("fewest/fence.pml", [], "epochs_complete"),
    "fewest_pscw_live": ("fewest/pscw.pml", [], "epochs_complete"),
    # a budget below one op's size: that single op asks first, like any batch that does not fit
    "fewest_passive_safety_budget_below_op": ("fewest/passive.pml", ["MODE1=0", "BUDGET=100"],
                                              "safety"),
    # mutations: each must violate the property in model/expect/<name>.txt
    "mut_grant_ignores_table": ("ch3/passive.pml", ["MODE1=0", "GRANT_IGNORES_TABLE"], "safety"),
    "mut_shared_overtakes": ("ch3/passive.pml", ["MODE1=0", "SHARED_OVERTAKES"], "safety"),
    "mut_apply_before_grant": ("ch3/passive.pml", ["MODE1=0", "APPLY_BEFORE_GRANT"], "safety"),
    "mut_drop_unlock": ("ch3/passive.pml", ["MODE1=0", "DROP_UNLOCK"], "safety"),
    "mut_drop_ack": ("ch3/passive.pml", ["MODE1=0", "DROP_ACK"], "safety"),
    "mut_no_singleton": ("ch3/passive.pml", ["MODE1=0", "NO_SINGLETON"], "safety"),
    "mut_get_not_last": ("ch3/passive.pml", ["MODE1=0", "GET_NOT_LAST"], "safety"),
    "mut_fence_count_twice": ("ch3/fence.pml", ["FENCE_COUNT_TWICE"], "safety"),
    "mut_done_on_first": ("ch3/pscw.pml", ["DONE_ON_FIRST"], "safety"),
    "mut_fewest_grant_ignores_table": ("fewest/passive.pml", ["MODE1=0", "GRANT_IGNORES_TABLE"],
                                       "safety"),
    "mut_fewest_held_op_early": ("fewest/passive.pml", ["MODE1=0", "HELD_OP_EARLY"], "safety"),
    "mut_fewest_drop_unlock": ("fewest/passive.pml", ["MODE1=0", "DROP_UNLOCK"], "safety"),
    "mut_fewest_ignore_budget": ("fewest/passive.pml", ["MODE1=0", "IGNORE_BUDGET"], "safety"),
    "mut_fewest_shared_overtakes": ("fewest/passive.pml", ["MODE1=0", "SHARED_OVERTAKES"], "safety"),
    "mut_fewest_drop_ack": ("fewest/passive.pml", ["MODE1=0", "DROP_ACK"], "safety"),
    "mut_fewest_no_singleton": ("fewest/passive.pml", ["MODE1=0", "NO_SINGLETON"], "safety"),
    "mut_fewest_get_not_last": ("fewest/passive.pml", ["MODE1=0", "GET_NOT_LAST"], "safety"),
    "mut_fewest_pscw_apply_ahead": ("fewest/pscw.pml", ["APPLY_AHEAD"], "safety"),
    "mut_fewest_pscw_ignore_unconfirmed": ("fewest/pscw.pml", ["IGNORE_UNCONFIRMED"], "safety"),
    "mut_fewest_pscw_done_on_first": ("fewest/pscw.pml", ["DONE_ON_FIRST"], "safety"),
    "mut_fewest_pscw_done_free": ("fewest/pscw.pml", ["DONE_FREE"], "safety"),
    "mut_fewest_fence_count_twice": ("fewest/fence.pml", ["FENCE_COUNT_TWICE"], "safety"),
    "mut_fewest_fence_apply_early": ("fewest/fence.pml", ["APPLY_EARLY"], "safety"),
    "mut_fewest_fence_drop_last": ("fewest/fence.pml", ["DROP_FENCE_LAST"], "safety"),
    "mut_fewest_fence_ignore_budget": ("fewest/fence.pml", ["IGNORE_BUDGET"], "safety"),
    "mut_fewest_fence_contrib_alone": ("fewest/fence.pml", ["CONTRIB_ALONE"], "safety"),
    "mut_fewest_fence_rounds_count_twice": ("fewest/fence.pml", ["ROUNDS", "FENCE_COUNT_TWICE"],
                                            "safety"),
    "mut_fewest_fence_rounds_apply_early": ("fewest/fence.pml", ["ROUNDS", "APPLY_EARLY"],
                                            "safety"),
    "mut_fewest_fence_rounds_drop_last": ("fewest/fence.pml", ["ROUNDS", "DROP_FENCE_LAST"],
                                          "safety"),
}

MEMLIM_MB = 3000


def run(cmd, cwd, timeout):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def violation(out):
    """The property pan reports violated, as the expectation files spell it."""
    m = re.search(r"assertion violated (\S+)", out)
    if m:
        return "assertion violated " + m.group(1).strip("()")
    if "invalid end state" in out and "errors: 0" not in out:
        return "invalid end state"
    if "acceptance cycle" in out and "errors: 0" not in out:
        return "acceptance cycle"
    return None


def check(name, work):
    model, defines, kind = CHECKS[name]
    expect_file = os.path.join(HERE, "expect", name + ".txt")
    expected = open(expect_file).read().strip() if os.path.exists(expect_file) else None
    if name.startswith("mut_") and expected is None:
        return False, f"{name}: no expectation {expect_file}"
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(HERE, d, ignore=shutil.ignore_patterns("*.py", "expect", "__pycache__"))
    mdir = os.path.join(d, os.path.dirname(model))
    mfile = os.path.basename(model)
    dflags = ["-D" + x for x in defines]
    rc, out = run(["spin", "-a"] + dflags + [mfile], mdir, 120)
    if rc != 0:
        return False, f"{name}: spin -a failed:\n{out}"
    # -O0: gcc -O2 spends longer on pan.c (45 s) than pan then saves (10 s against 15 s)
    cflags = ["-O0", "-DCOLLAPSE", f"-DMEMLIM={MEMLIM_MB}"]
    if kind == "safety":
        cflags += ["-DNOCLAIM", "-DSAFETY"]
    rc, out = run(["gcc"] + cflags + ["-o", "pan", "pan.c"], mdir, 300)
    if rc != 0:
        return False, f"{name}: gcc failed:\n{out}"
    args = ["./pan", "-m100000", "-w24"]
    if kind != "safety":
        args += ["-a", "-N", kind]
    t0 = time.monotonic()
    rc, out = run(args, mdir, 900)
    secs = time.monotonic() - t0
    open(os.path.join(d, "pan.out"), "w").write(out)
    stored = re.search(r"([0-9.e+]+) states, stored", out)
    trans = re.search(r"([0-9.e+]+) transitions", out)
    mem = re.search(r"([0-9.]+)\s+total actual memory usage", out)
    errs = re.search(r"errors: (\d+)", out)
    stats = (f"states {stored.group(1) if stored else '?'}, transitions "
             f"{trans.group(1) if trans else '?'}, memory {mem.group(1) if mem else '?'} MB, "
             f"{secs:.1f} s")
    if errs is None or "error: max search depth too small" in out or "out of memory" in out:
        return False, f"{name}: pan did not finish a complete search ({stats}):\n{out[-2000:]}"
    if expected is None:
        if int(errs.group(1)) != 0:
            return False, f"{name}: FAILED, {violation(out)} ({stats}); trail in {mdir}"
        return True, f"{name}: passed, {kind}, {' '.join(defines)} ({stats})"
    found = violation(out)
    if int(errs.group(1)) == 0 or found != expected:
        return False, f"{name}: expected '{expected}', found '{found}' ({stats})"
    # replay the counterexample: the trail must lead to the same violation
    rc, replay = run(["spin", "-t", "-k", mfile + ".trail"] + dflags + [mfile], mdir, 120)
    open(os.path.join(d, "trail.txt"), "w").write(replay)
    steps = len(open(os.path.join(mdir, mfile + ".trail")).read().splitlines())
    if expected.startswith("assertion") and expected.split()[-1] not in replay:
        return False, f"{name}: the trail does not replay to '{expected}':\n{replay[-2000:]}"
    return True, f"{name}: violation found as expected: {found}, trail of {steps} steps ({stats})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--work", default=None, help="where pan is built and run (default: a temp dir)")
    a = ap.parse_args()
    if a.list:
        print("\n".join(CHECKS))
        return 0
    for n in a.names:
        if n not in CHECKS:
            print(f"check.py: no check named '{n}' (--list shows them)", file=sys.stderr)
            return 2
    for tool in ("spin", "gcc"):
        if shutil.which(tool) is None:
            print(f"check.py: '{tool}' not found (bash ci/setup.sh installs it)", file=sys.stderr)
            return 2
    work = a.work or tempfile.mkdtemp(prefix="rma_model_")
    os.makedirs(work, exist_ok=True)
    ok_all = True
    for n in a.names or list(CHECKS):
        ok, msg = check(n, work)
        print(msg, flush=True)
        ok_all = ok_all and ok
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
