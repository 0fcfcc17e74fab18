#!/usr/bin/env python3
"""folder_cycles.py — the folder graph of a source tree, from its `#include "folder/..."` lines,
and whether it has a cycle.

    python3 ci/folder_cycles.py harness            # prints the edges; exit 1 on a cycle
    python3 ci/folder_cycles.py --self-test        # the checker finds a cycle it is shown

A file in ROOT/a/ that includes "b/x.hpp", where ROOT/b/ is a folder, is an edge a -> b.
Includes that name no folder of ROOT (the rma/ public headers, system headers) are no edge.
Folders are layers: every cycle found is printed with a file:line for each of its edges.
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"')
SOURCES = ('.hpp', '.h', '.cpp', '.cc', '.in')


def folder_graph(root):
    """{folder: {included folder: "file:line" of the first such include}}"""
    folders = {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))}
    graph = {f: {} for f in folders}
    for f in sorted(folders):
        for dirpath, _, files in os.walk(os.path.join(root, f)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding='utf-8', errors='replace') as src:
                    for n, line in enumerate(src, 1):
                        m = INCLUDE.match(line)
                        if m and m.group(1) in folders and m.group(1) != f:
                            graph[f].setdefault(m.group(1), f'{path}:{n}')
    return graph


def cycles(graph):
    """Every elementary cycle through its smallest folder, each once (graphs are small)."""
    found = []
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, {})):
                if nxt == start:
                    found.append(path + [start])
                elif nxt > start and nxt not in path:
                    stack.append((nxt, path + [nxt]))
    return found


def report(root):
    graph = folder_graph(root)
    for f in sorted(graph):
        print(f'{f} -> {", ".join(sorted(graph[f])) or "(nothing)"}')
    found = cycles(graph)
    for c in found:
        print('cycle: ' + ' -> '.join(c))
        for a, b in zip(c, c[1:]):
            print(f'  {a} -> {b}: {graph[a][b]}')
    print(f'{len(found)} cycle(s) among {len(graph)} folders of {root}')
    return 1 if found else 0


def self_test():
    with tempfile.TemporaryDirectory() as root:
        files = {
            'low/a.hpp': '#include <vector>\n#include "rma/types.hpp"\n',
            'mid/b.cpp': '#include "low/a.hpp"\n',
            'top/c.cpp': '#include "mid/b.hpp"\n#include "low/a.hpp"\n',
        }
        for rel, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w') as out:
                out.write(text)
        acyclic = cycles(folder_graph(root))
        with open(os.path.join(root, 'low/a.hpp'), 'a') as out:
            out.write('#include "top/c.hpp"\n')
        cyclic = cycles(folder_graph(root))
    ok = acyclic == [] and sorted(map(tuple, cyclic)) == [('low', 'top', 'low'),
                                                           ('low', 'top', 'mid', 'low')]
    print('self-test:', 'acyclic', acyclic, 'cyclic', cyclic, '->', 'ok' if ok else 'FAILED')
    return 0 if ok else 1


if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(report(sys.argv[1]))
