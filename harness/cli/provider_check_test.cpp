// --provider before any case runs: refused when no case is on the fabric backend (it would
// only have renamed shm cases), refused naming the providers there are when libfabric has no
// such one, and libfabric not asked at all when no --provider was given.
#include "cli/provider_check.hpp"

#include <gtest/gtest.h>

#include <string>

namespace harness::cli {
namespace {

suite::CaseSpec a_case(const std::string& backend, const std::string& impl = "ref") {
  suite::CaseSpec c;
  c.stem = "examples/hello";
  c.backend = backend;
  c.impl = impl;
  return c;
}

// Offers "tcp;ofi_rxm" and "shm"; counts how often it was asked.
struct FakeLibfabric {
  int asked = 0;
  ProviderCatalog catalog() {
    return {[this](const std::string& p) {
              ++asked;
              return p == "tcp;ofi_rxm" || p == "shm" ? rma::Status::ok()
                                                      : rma::Status{rma::ErrorClass::unsupported,
                                                                    "no such provider '" + p + "'"};
            },
            [] {
              return std::vector<std::string>{"tcp;ofi_rxm", "shm"};
            }};
  }
};

std::string refusal(const std::optional<std::string>& provider, const suite::Expansion& ex,
                    const ProviderCatalog& catalog) {
  try {
    check_provider(provider, ex, "hello.lua", catalog);
  } catch (const suite::UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ProviderCheck, NoProviderIsNotChecked) {
  FakeLibfabric fi;
  suite::Expansion ex;
  ex.cases = {a_case("fabric")};
  EXPECT_EQ(refusal(std::nullopt, ex, fi.catalog()), "");
  EXPECT_EQ(refusal(std::string(), ex, fi.catalog()), "");
  EXPECT_EQ(fi.asked, 0);
}

TEST(ProviderCheck, AProviderWithoutAFabricCaseIsRefused) {
  FakeLibfabric fi;
  suite::Expansion ex;
  ex.cases = {a_case("shm"), a_case("fabric", "mpich")};
  const std::string why = refusal("tcp;ofi_rxm", ex, fi.catalog());
  EXPECT_NE(why.find("--provider applies to the reference implementation's fabric backend only"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("hello.lua"), std::string::npos) << why;
  EXPECT_NE(why.find("--provider tcp;ofi_rxm"), std::string::npos) << why;
  EXPECT_EQ(fi.asked, 0);
}

TEST(ProviderCheck, AnUnknownProviderIsRefusedWithTheOnesThereAre) {
  FakeLibfabric fi;
  suite::Expansion ex;
  ex.cases = {a_case("shm"), a_case("fabric")};
  const std::string why = refusal("nonsense", ex, fi.catalog());
  EXPECT_NE(why.find("--provider nonsense: no such provider 'nonsense'"), std::string::npos) << why;
  EXPECT_NE(why.find("providers here: tcp;ofi_rxm, shm"), std::string::npos) << why;
}

TEST(ProviderCheck, AKnownProviderOfAFabricCaseIsAccepted) {
  FakeLibfabric fi;
  suite::Expansion ex;
  ex.excluded = {{a_case("fabric"), "needs 4 ranks"}};
  EXPECT_EQ(refusal("tcp;ofi_rxm", ex, fi.catalog()), "");
  EXPECT_EQ(fi.asked, 1);
}

}  // namespace
}  // namespace harness::cli
