#!/usr/bin/env python3
"""netns_rank.py PATTERN PROGRAM ARGS... — run one rank of an `mpirun` job in a network
namespace of its own, as if on another host (the partition test of tests/e2e/fabric_test.cpp).

PATTERN names the namespace, `{rank}` standing for the rank (OMPI_COMM_WORLD_RANK or
PMIX_RANK). `ip netns exec` alone is not enough under mpirun: the PMIx server listens on the
launcher's 127.0.0.1, which a rank in another namespace cannot reach. So a forwarder process
listens on 127.0.0.1:PORT inside the rank's namespace and connects each client to the real
server in the launcher's namespace (a socket keeps the namespace it was made in); only the
fabric traffic between ranks crosses the namespaces' own link. The forwarder dies with the
rank (PR_SET_PDEATHSIG). Needs root (setns).
"""
import ctypes
import os
import re
import signal
import socket
import sys
import threading

CLONE_NEWNET = 0x40000000
PR_SET_PDEATHSIG = 1
libc = ctypes.CDLL(None, use_errno=True)


def setns(fd):
    if libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "setns: " + os.strerror(err))


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def forward(listener, root_fd, port):
    # Sockets made from here on belong to the launcher's namespace.
    setns(root_fd)
    while True:
        client, _ = listener.accept()
        server = socket.create_connection(("127.0.0.1", port))
        for a, b in ((client, server), (server, client)):
            threading.Thread(target=pump, args=(a, b), daemon=True).start()


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: netns_rank.py PATTERN PROGRAM ARGS...")
    rank = os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMIX_RANK"))
    if rank is None:
        sys.exit("netns_rank.py: neither OMPI_COMM_WORLD_RANK nor PMIX_RANK is set")
    ns = sys.argv[1].replace("{rank}", rank)
    uri = os.environ.get("PMIX_SERVER_URI41") or os.environ.get("PMIX_SERVER_URI4") or ""
    m = re.search(r"tcp4://127\.0\.0\.1:(\d+)", uri)
    if not m:
        sys.exit("netns_rank.py: no tcp4://127.0.0.1 PMIx server URI in the environment: " + uri)
    port = int(m.group(1))

    root_fd = os.open("/proc/self/ns/net", os.O_RDONLY)
    ns_fd = os.open("/run/netns/" + ns, os.O_RDONLY)
    setns(ns_fd)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)

    parent = os.getpid()
    if os.fork() == 0:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:
            os._exit(0)
        try:
            forward(listener, root_fd, port)
        finally:
            os._exit(0)
    listener.close()
    os.close(root_fd)
    os.close(ns_fd)
    # This process is in the rank's namespace now: become the rank.
    os.execvp(sys.argv[2], sys.argv[2:])


if __name__ == "__main__":
    main()
