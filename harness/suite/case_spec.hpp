// case_spec.hpp — one case of a run: a script on a number of ranks with a backend, a path, a
// progress mode and option values. The parent expands scripts and suites into CaseSpecs and
// sends each rank its spec as JSON; the case id is stable across runs and report formats:
//
//   suite/script[backend,path,np=N,progress=P,protocol=X,k=v]
//   suite/script[impl=mpich,np=N,progress=P,k=v]            (an MPI library)
//
// backend as `fabric:PROVIDER` on fabric when a provider is given (on no other backend);
// progress only when not async (on an MPI library always); protocol only when the case's
// entry runs more than one.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "suite/case_names.hpp"

namespace harness::suite {

struct CaseSpec {
  std::string id;
  std::string suite;   // "" for a script run on its own
  std::string script;  // path of the Lua file
  std::string stem;    // script path relative to the scripts folder, without .lua
  int ranks = 2;
  std::string backend{kShmBackend};
  rma::Path path = rma::Path::am;
  rma::ProgressMode progress = rma::ProgressMode::async;
  // The am packet protocol; a bench case that measures several side by side in one launch
  // lists them (cli/bench_command.cpp), spelt joined by '+' ("fewest+ch3") in JSON.
  std::vector<rma::Protocol> protocols{rma::Protocol::fewest};
  bool protocol_in_id = false;                 // the entry runs both protocols: the id says which
  std::string provider;                        // fabric provider, "" for the default
  std::map<std::string, std::string> options;  // values as given; typed by the script
  Expected expected = Expected::pass;
  double timeout_s = 60;
  std::size_t eager_limit = 16 * 1024;
  std::vector<std::string> tags;
  Bind bind = Bind::auto_;
  // The implementation under test: kReferenceImpl, or an MPI as --impl spelt it
  // ("openmpi:osc=sm").
  std::string impl{kReferenceImpl};
  Check check = Check::none;  // races: the ranks record, the parent checks (--check races)
  bool trace = false;         // --trace: the ranks record packets and calls (rma/trace.hpp)
  // What the script's `impl_defined` says MPI leaves to the implementation for this case
  // ("" when nothing): on a library, a case that does not pass gets the verdict impl_defined.
  std::string impl_defined;

  CaseMode mode = CaseMode::run;
  // bench: {"sizes": [bytes...], "syncs": [...], "repetitions": n, "min_time_s": s,
  //         "targets": ["wait", "compute"]}
  nlohmann::json bench = nlohmann::json::object();

  // Filled by the launcher for the ranks.
  std::string name_prefix;

  bool on_reference() const { return impl == kReferenceImpl; }
  bool on_fabric() const { return backend == kFabricBackend; }
  // The path as scripts (`rma.path`) and bench entries name it: on an MPI library, the
  // library's name ("openmpi" of "openmpi:osc=sm"), since its windows have no reference path.
  std::string path_name() const {
    return on_reference() ? name(path) : impl.substr(0, impl.find(':'));
  }
};

// "suite/stem[backend,path,np=N,...]" from the fields above.
std::string make_case_id(const CaseSpec& c);

// The case's protocols as JSON and reports spell them: "fewest", or "fewest+ch3".
std::string protocols_text(const CaseSpec& c);

nlohmann::json to_json(const CaseSpec& c);
CaseSpec case_from_json(const nlohmann::json& j);

}  // namespace harness::suite
