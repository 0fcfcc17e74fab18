// limits.hpp — the process limits a case of many ranks needs, checked before anything starts.
//
// The launcher holds about three descriptors per rank (control channel, bootstrap socket,
// exit pidfd) and every rank runs two threads (its main thread and the progress agent). A
// soft limit too low is raised to the hard limit; if that is still too low the run stops
// with the numbers and the command that fixes it, instead of failing half-way through a
// spawn (ulimit -n) or with EAGAIN from clone (ulimit -u).
#pragma once

namespace harness::launcher {

// Throws LaunchError when `ranks` rank processes cannot be started under this process's
// limits.
void ensure_limits_for(int ranks);

}  // namespace harness::launcher
