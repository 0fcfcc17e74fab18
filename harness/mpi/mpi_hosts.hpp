// mpi_hosts.hpp — an MPI library's ranks on several hosts (--mpi-hosts, --mpi-hostfile): the
// hosts checked (each resolves and has a route), the address the parent's control socket
// binds (the one its host reaches them from), and the library launcher's own words for them
// — hydra's `-hosts`, Open MPI's `--host` with slots and `--map-by` — with its remote-start
// agent when one is given (hydra `-launcher ssh -launcher-exec`, Open MPI `plm_rsh_agent`).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mpi/mpi_start.hpp"

namespace harness::mpi {

struct HostPlan {
  enum class Placement { spread, block };  // one rank per host in turn, or hosts filled in turn
  std::vector<std::string> hosts;
  Placement placement = Placement::spread;
  std::string rsh;              // the launcher's remote-start agent; "" for its default (ssh)
  std::string control_address;  // what the parent's control socket binds
};

// The host names of a hostfile: one per line, the first word, "host:N" or "host slots=N"
// allowed, '#' comments; throws suite::UsageError naming the file and line.
std::vector<std::string> read_hostfile(const std::string& path);

// Checks `hosts` (named `field` in errors: "--mpi-hosts") and picks the control address: the
// address this host reaches the first host that is not itself from (127.0.0.1 when all are
// this host). Throws suite::UsageError naming the field and the host.
HostPlan plan_hosts(const std::vector<std::string>& hosts, const std::string& field,
                    const std::string& map, const std::string& rsh);

// The launcher's words that place `ranks` ranks on the plan's hosts, by its kind (hydra,
// openmpi); throws suite::UsageError for a kind whose syntax is not known.
std::vector<std::string> placement_words(const std::string& kind, const HostPlan& plan, int ranks);

// The Start of a case across the plan's hosts: the library's launcher with placement_words,
// the control channel over TCP.
std::shared_ptr<const Start> hosts_start(const MpiLaunch& mpi, HostPlan plan);

}  // namespace harness::mpi
