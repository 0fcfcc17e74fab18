// The PMIx client: rmabench as one rank of a job an existing launcher started (Open MPI's
// mpirun, Slurm's srun --mpi=pmix). Keys are put in this process's PMIx key space and
// committed; a reader names the owner, taken from the key's ".<rank>" suffix.
#include <pmix.h>

#include <cstdlib>
#include <cstring>

#include "rma/bootstrap.hpp"

namespace rma::bootstrap {
namespace {

Status pmix_error(const char* call, pmix_status_t rc) {
  return {ErrorClass::other, std::string(call) + ": " + PMIx_Error_string(rc)};
}

class PmixBootstrap final : public Bootstrap {
 public:
  PmixBootstrap(const pmix_proc_t& me, int size) : me_(me), size_(size) {}
  ~PmixBootstrap() override { PMIx_Finalize(nullptr, 0); }

  int rank() const override { return static_cast<int>(me_.rank); }
  int size() const override { return size_; }
  std::string_view kind() const override { return "pmix"; }

  Status put(const std::string& key, const std::string& value) override {
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_STRING;
    v.data.string = const_cast<char*>(value.c_str());
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key.c_str(), &v);
    if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Put", rc);
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Commit", rc);
    return Status::ok();
  }

  Result<std::string> get(const std::string& key) override {
    const auto dot = key.rfind('.');
    char* end = nullptr;
    const long owner = dot == std::string::npos ? -1 : std::strtol(key.c_str() + dot + 1, &end, 10);
    if (owner < 0 || owner >= size_ || (end && *end))
      return Status{ErrorClass::arg, "bootstrap key '" + key + "' does not end with a rank"};
    pmix_proc_t proc;
    PMIX_PROC_CONSTRUCT(&proc);
    std::memcpy(proc.nspace, me_.nspace, sizeof proc.nspace);
    proc.rank = static_cast<pmix_rank_t>(owner);
    pmix_value_t* val = nullptr;
    pmix_status_t rc = PMIx_Get(&proc, key.c_str(), nullptr, 0, &val);
    if (rc != PMIX_SUCCESS || !val) return pmix_error(("PMIx_Get(" + key + ")").c_str(), rc);
    std::string out = val->type == PMIX_STRING && val->data.string ? val->data.string : "";
    PMIX_VALUE_RELEASE(val);
    return out;
  }

  Status fence() override {
    pmix_proc_t all;
    PMIX_PROC_CONSTRUCT(&all);
    std::memcpy(all.nspace, me_.nspace, sizeof all.nspace);
    all.rank = PMIX_RANK_WILDCARD;
    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(&all, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Fence", rc);
    return Status::ok();
  }

 private:
  pmix_proc_t me_;
  int size_;
};

}  // namespace

bool pmix_available() {
  return std::getenv("PMIX_NAMESPACE") != nullptr && std::getenv("PMIX_RANK") != nullptr;
}

Result<std::unique_ptr<Bootstrap>> pmix_client() {
  pmix_proc_t me;
  pmix_status_t rc = PMIx_Init(&me, nullptr, 0);
  if (rc != PMIX_SUCCESS) return pmix_error("PMIx_Init", rc);
  pmix_proc_t job;
  PMIX_PROC_CONSTRUCT(&job);
  std::memcpy(job.nspace, me.nspace, sizeof job.nspace);
  job.rank = PMIX_RANK_WILDCARD;
  pmix_value_t* val = nullptr;
  rc = PMIx_Get(&job, PMIX_JOB_SIZE, nullptr, 0, &val);
  if (rc != PMIX_SUCCESS || !val) {
    PMIx_Finalize(nullptr, 0);
    return pmix_error("PMIx_Get(job size)", rc);
  }
  const int size = static_cast<int>(val->data.uint32);
  PMIX_VALUE_RELEASE(val);
  return std::unique_ptr<Bootstrap>(new PmixBootstrap(me, size));
}

}  // namespace rma::bootstrap
