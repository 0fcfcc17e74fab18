// Suite manifests: a misspelt key is an error naming it (a typo must not change the matrix
// silently); progress modes are spelt snake_case, the old spelling accepted.
#include "suite/manifest.hpp"
#include "support/temp_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace harness::suite {
namespace {

namespace fs = std::filesystem;

// A folder with one script and a manifest `body` beside it; returns the manifest's path.
std::string manifest(const std::string& tag, const std::string& body) {
  const auto& tmp = test_support::program_temp_dir();
  const std::string dir = "manifest_test/" + tag + "/";
  tmp.write(dir + "one.lua", "return { ranks = 2, run = function(ctx) end }\n");
  return tmp.write(dir + "suite.lua", body);
}

std::string rejection(const std::string& path, const Overrides& o = {}) {
  try {
    (void)expand(path, o);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Manifest, UnknownTopLevelKeyIsNamed) {
  const auto p =
      manifest("top", "return { name = \"s\", progres = {\"calls\"}, cases = { \"one.lua\" } }\n");
  EXPECT_EQ(rejection(p), p + ": unknown field 'progres' (did you mean 'progress'?)");
}

// luaL_len ran __len outside any protected call: a Lua panic.
TEST(Manifest, ACasesListWithAMetatableIsRefused) {
  const auto p = manifest("meta", R"(return { name = "m", scripts_dir = ".",
  cases = setmetatable({}, {__len = function() error("len") end}) })");
  EXPECT_EQ(rejection(p), p + ": the table it returns has a metatable (at `cases`): case tables "
                              "and suites are plain data, read without running Lua");
}

// Each was accepted: "" took the scripts folder as the script (every rank: "Is a
// directory"), `expect = {}` was read as not given, and an empty option list only said "no
// case to run".
TEST(Manifest, EntriesThatSayNothingAreNamed) {
  EXPECT_EQ(rejection(manifest("emptyscript", "return { name = \"s\", cases = { \"\" } }\n")),
            manifest("emptyscript", "return { name = \"s\", cases = { \"\" } }\n") +
                ": cases[1]: an empty script path");
  const auto d =
      manifest("dirscript",
               "return { name = \"s\", scripts_dir = \"..\", cases = { "
               "\"" +
                   fs::path(manifest("x", "")).parent_path().filename().string() + "\" } }\n");
  EXPECT_NE(rejection(d).find("(a directory)"), std::string::npos) << rejection(d);
  const auto e =
      manifest("expecttable",
               "return { name = \"s\", cases = { { script = \"one.lua\", expect = {} } } }\n");
  EXPECT_EQ(rejection(e), e + ": cases[1]: `expect` must be a string, got table");
  const auto o = manifest("emptyoption",
                          "return { name = \"s\", cases = { { script = "
                          "\"one.lua\", options = { bytes = {} } } } }\n");
  EXPECT_EQ(rejection(o),
            o + ": cases[1]: `options.bytes`: an empty list of values (no case would run)");
}

// " 8" and "0x8" reached the ranks as 8 but kept their spelling in the case id: one value,
// ids a gate could not pair; a newline broke the console line.
TEST(Manifest, NumberOptionsTakeOneSpelling) {
  const auto p = manifest("spelling",
                          "return { name = \"s\", cases = { { script = \"opt.lua\", "
                          "options = { n = {\" 8\", \"0x10\"} } } } }\n");
  std::ofstream(fs::path(p).parent_path() / "opt.lua")
      << "return { ranks = 2, options = { n = {\"a count\", 1} }, run = function(ctx) end }\n";
  const Expansion e = expand(p, {});
  ASSERT_EQ(e.cases.size(), 2u);
  EXPECT_EQ(e.cases[0].options.at("n"), "8");
  EXPECT_EQ(e.cases[1].options.at("n"), "16");
  Overrides o;
  o.options["n"] = "0x8";
  EXPECT_EQ(expand(p, o).cases.at(0).options.at("n"), "8");
  const auto q = manifest("twice",
                          "return { name = \"s\", cases = { { script = \"opt.lua\", "
                          "options = { n = {8, \"0x8\"} } } } }\n");
  std::ofstream(fs::path(q).parent_path() / "opt.lua")
      << "return { ranks = 2, options = { n = {\"a count\", 1} }, run = function(ctx) end }\n";
  EXPECT_EQ(rejection(q), q + ": cases[1]: option n: '0x8' is 8, listed already");
  // A float keeps every digit (Lua's tostring rounds to 14) and its point.
  const auto f =
      manifest("float",
               "return { name = \"s\", cases = { { script = \"optf.lua\", "
               "options = { r = {\"0.1234567890123456\", \"0x10p-4\", \"2e0\"} } } } }\n");
  std::ofstream(fs::path(f).parent_path() / "optf.lua")
      << "return { ranks = 2, options = { r = {\"a rate\", 0.5} }, run = function(ctx) end }\n";
  const Expansion ef = expand(f, {});
  ASSERT_EQ(ef.cases.size(), 3u);
  EXPECT_EQ(ef.cases[0].options.at("r"), "0.1234567890123456");
  EXPECT_EQ(ef.cases[1].options.at("r"), "1.0");
  EXPECT_EQ(ef.cases[2].options.at("r"), "2.0");
  o.options["n"] = "8\n";
  EXPECT_EQ(rejection(p, o),
            p + ": cases[1]: option n: a control character in the value (a newline?)");
}

// Past 10,000 tables the check gave up and said "plain": a metatable beyond went through.
TEST(Manifest, AMetatableFarDownIsFoundAndDepthIsBounded) {
  const auto p = manifest("far", R"(local cases = {}
for i = 1, 6000 do cases[i] = { script = "one.lua", tags = { "t" .. i } } end
cases[6000].tags = setmetatable({}, {})
return { name = "m", scripts_dir = ".", cases = cases })");
  EXPECT_NE(rejection(p).find("has a metatable (at `cases[6000].tags`)"), std::string::npos)
      << rejection(p);
  const auto q = manifest("deep", R"(local t = {}
for i = 1, 100 do t = { t } end
return { name = "m", scripts_dir = ".", cases = { "one.lua" }, tags = t })");
  EXPECT_NE(rejection(q).find("nests tables more than 64 deep"), std::string::npos) << rejection(q);
  const auto r = manifest("oddkey", R"(return { name = "m", cases = { "one.lua" },
  [""] = setmetatable({}, {}) })");
  EXPECT_NE(rejection(r).find("has a metatable (at `[\"\"]`)"), std::string::npos) << rejection(r);
}

TEST(Manifest, UnknownEntryKeyIsNamed) {
  const auto p = manifest(
      "entry",
      "return { name = \"s\", cases = { { script = \"one.lua\", expct = \"deadlock\" } } }\n");
  EXPECT_EQ(rejection(p), p + ": cases[1]: unknown field 'expct' (did you mean 'expect'?)");
}

TEST(Manifest, AnOptionsKeyThatIsNoNameIsNamed) {
  // Found by manifest_fuzz: `options = { seed = {1}, {4} }` has the key 1, and turning it into
  // a string in place broke the traversal (a Lua panic, the process aborted).
  const auto p = manifest("optkey",
                          "return { name = \"s\", cases = { { script = \"one.lua\", options = { n "
                          "= {1}, {4} } } } }\n");
  EXPECT_EQ(rejection(p), p + ": cases[1]: `options` keys must be option names, not a number "
                              "(write `name = {values}`)");
}

TEST(Manifest, ProgressOldSpellingIsAcceptedAndNormalised) {
  const auto p = manifest("prog",
                          "return { name = \"s\", cases = { { script = \"one.lua\", progress = "
                          "{\"sync-only\", \"calls\"} } } }\n");
  const Expansion ex = expand(p, {});
  ASSERT_EQ(ex.cases.size(), 2u);
  EXPECT_EQ(ex.cases[0].progress, rma::ProgressMode::sync_only);
  EXPECT_EQ(ex.cases[0].id, "s/one[shm,am,np=2,progress=sync_only]");
  // The command line narrows with either spelling.
  Overrides o;
  o.progress = "sync-only";
  EXPECT_EQ(expand(p, o).cases.size(), 1u);
  EXPECT_EQ(canonical_progress("sync-only"), "sync_only");
  EXPECT_EQ(canonical_progress("calls"), "calls");
}

TEST(Manifest, AnEntryRunningBothProtocolsSaysWhichInItsIds) {
  const auto p = manifest("proto",
                          "return { name = \"s\", cases = { \"one.lua\", { script = \"one.lua\", "
                          "ranks = {3}, protocols = {\"fewest\", \"ch3\"} } } }\n");
  const Expansion ex = expand(p, {});
  ASSERT_EQ(ex.cases.size(), 3u);
  EXPECT_EQ(ex.cases[0].id, "s/one[shm,am,np=2]");
  EXPECT_EQ(ex.cases[0].protocols, std::vector{rma::Protocol::fewest});
  EXPECT_EQ(ex.cases[1].id, "s/one[shm,am,np=3,protocol=fewest]");
  EXPECT_EQ(ex.cases[2].id, "s/one[shm,am,np=3,protocol=ch3]");
  EXPECT_EQ(ex.cases[2].protocols, std::vector{rma::Protocol::ch3});
  // --protocol narrows: one protocol per entry, so the ids no longer say it.
  Overrides o;
  o.protocol = "ch3";
  const Expansion narrowed = expand(p, o);
  ASSERT_EQ(narrowed.cases.size(), 2u);
  EXPECT_EQ(narrowed.cases[1].id, "s/one[shm,am,np=3]");
  EXPECT_EQ(narrowed.cases[1].protocols, std::vector{rma::Protocol::ch3});
  const auto bad = manifest(
      "proto_bad",
      "return { name = \"s\", cases = { { script = \"one.lua\", protocols = {\"mpich\"} } } }\n");
  EXPECT_NE(rejection(bad).find("protocol"), std::string::npos) << rejection(bad);
}

// A paired bench case's protocols are spelt joined by '+', and read back so; every other
// case names one.
TEST(CaseProtocols, OneOrThoseAPairedCaseListsThroughTheJsonCodec) {
  CaseSpec c;
  EXPECT_EQ(protocols_text(c), "fewest");
  c.protocols = {rma::Protocol::ch3};
  EXPECT_EQ(protocols_text(c), "ch3");
  c.protocols = {rma::Protocol::fewest, rma::Protocol::ch3};
  EXPECT_EQ(protocols_text(c), "fewest+ch3");
  EXPECT_EQ(case_from_json(to_json(c)).protocols, c.protocols);
}

// Every enum of a case survives the codec the ranks read their case with; a name the tables
// do not know is an error naming the field, not a default.
TEST(CaseSpecJson, EnumsRoundTripAndUnknownNamesAreErrors) {
  CaseSpec c;
  c.path = rma::Path::direct;
  c.progress = rma::ProgressMode::sync_only;
  c.expected = Expected::deadlock;
  c.bind = Bind::none;
  c.check = Check::races;
  c.mode = CaseMode::floor;
  const CaseSpec back = case_from_json(to_json(c));
  EXPECT_EQ(back.path, c.path);
  EXPECT_EQ(back.progress, c.progress);
  EXPECT_EQ(back.expected, c.expected);
  EXPECT_EQ(back.bind, c.bind);
  EXPECT_EQ(back.check, c.check);
  EXPECT_EQ(back.mode, c.mode);
  nlohmann::json j = to_json(c);
  j["mode"] = "sprint";
  try {
    (void)case_from_json(j);
    ADD_FAILURE() << "an unknown mode was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mode 'sprint'"), std::string::npos) << e.what();
  }
}

// std::stod read them, the ranks' lua_stringtonumber does not: `factor` arrived as nil. The
// check now reads values as the ranks do: "inf" is no number to it, "1e999" an infinite one.
TEST(Manifest, ANumberOptionThatIsNotFiniteIsNamedWithItsValue) {
  const fs::path dir = fs::path(manifest("nonfinite", "")).parent_path();
  std::ofstream(dir / "factor.lua")
      << "return { ranks = 1, options = { factor = {\"a factor\", 1.5} },\n"
         "         run = function(ctx) end }\n";
  for (const std::string v :
       {"inf", "nan", "infinity", "-inf", "-nan", "math.huge", "0/0", "1e999"}) {
    const bool lua = v.find_first_of("./") != std::string::npos;
    std::ofstream(dir / "suite.lua") << "return { name = \"s\", cases = { { script = "
                                        "\"factor.lua\", options = { factor = {"
                                     << (lua ? v : "\"" + v + "\"") << "} } } } }\n";
    const std::string err = rejection((dir / "suite.lua").string());
    const bool as_number = v == "1e999";
    EXPECT_NE(err.find(std::string(": cases[1]: option factor expects a ") +
                       (as_number ? "finite " : "") + "number, got '"),
              std::string::npos)
        << v << ": " << err;
  }
  Overrides o;
  o.options["factor"] = "inf";
  const std::string script = (dir / "factor.lua").string();
  EXPECT_NE(rejection(script, o).find("option factor expects a number, got 'inf'"),
            std::string::npos)
      << rejection(script, o);
  o.options["factor"] = "1e3";
  EXPECT_EQ(rejection(script, o), "");
}

// An integer option is read as the ranks read it: "010" is 10 there, so it is 10 here too
// (std::stoll with base 0 took it for octal 8 and passed what the ranks then read otherwise),
// and "2.0" is a float, no integer.
TEST(Manifest, AnIntegerOptionIsReadAsTheRanksReadIt) {
  const fs::path dir = fs::path(manifest("intopt", "")).parent_path();
  std::ofstream(dir / "count.lua")
      << "return { ranks = 1, options = { count = {\"how many\", 4} },\n"
         "         run = function(ctx) end }\n";
  const std::string script = (dir / "count.lua").string();
  Overrides o;
  for (const std::string ok : {"010", "0x10", "-3", " 7 "}) {
    o.options["count"] = ok;
    EXPECT_EQ(rejection(script, o), "") << ok;
  }
  for (const std::string bad : {"2.0", "1e3", "08x", "", "four"}) {
    o.options["count"] = bad;
    EXPECT_NE(rejection(script, o).find("option count expects an integer, got '" + bad + "'"),
              std::string::npos)
        << bad << ": " << rejection(script, o);
  }
}

TEST(Manifest, ATimeoutOutOfTheCliRangeIsNamed) {
  // It ended every case before its ranks started, reported as crashes that never say why:
  // 0 or less, and also 1e10 and 1e-6.
  const auto p = manifest(
      "timeout", "return { name = \"s\", cases = { { script = \"one.lua\", timeout = -5 } } }\n");
  EXPECT_EQ(rejection(p),
            p + ": cases[1]: `timeout` must be a number of seconds from 0.1 to 86400, not -5");
  const auto q =
      manifest("timeout0", "return { name = \"s\", timeout = 0, cases = { \"one.lua\" } }\n");
  EXPECT_EQ(rejection(q), q + ": `timeout` must be a number of seconds from 0.1 to 86400, not 0");
  const auto r =
      manifest("timeoutbig",
               "return { name = \"s\", cases = { { script = \"one.lua\", timeout = 1e10 } } }\n");
  EXPECT_EQ(rejection(r),
            r + ": cases[1]: `timeout` must be a number of seconds from 0.1 to 86400, not 1e+10");
  const auto t =
      manifest("timeouttiny", "return { name = \"s\", timeout = 1e-6, cases = { \"one.lua\" } }\n");
  EXPECT_EQ(rejection(t),
            t + ": `timeout` must be a number of seconds from 0.1 to 86400, not 1e-06");
  EXPECT_EQ(rejection(manifest("timeoutday",
                               "return { name = \"s\", timeout = 86400, cases = "
                               "{ \"one.lua\" } }\n")),
            "");
}

// A script whose run grows with an option gives its own limit: --timeout, then a suite
// entry's `timeout`, replace it; it replaces the suite's default.
TEST(Manifest, AScriptsTimeoutGrowsWithItsOptionAndGivesWayToExplicitOnes) {
  const fs::path dir = fs::path(manifest("scripttimeout", "")).parent_path();
  std::ofstream(dir / "grows.lua")
      << "return { ranks = 1, options = { programs = {\"how many\", 20} },\n"
         "         timeout = { 60, programs = 0.5 }, run = function(ctx) end }\n";
  const std::string script = (dir / "grows.lua").string();
  const auto limits = [](const std::string& input, const Overrides& o) {
    std::vector<double> v;
    for (const auto& c : expand(input, o).cases) v.push_back(c.timeout_s);
    return v;
  };
  Overrides o;
  EXPECT_EQ(limits(script, o), std::vector<double>{70});  // the default, 20 programs
  o.options["programs"] = "1000";
  EXPECT_EQ(limits(script, o), std::vector<double>{560});
  o.timeout_s = 5;
  EXPECT_EQ(limits(script, o), std::vector<double>{5});

  std::ofstream(dir / "suite2.lua")
      << "return { name = \"s\", timeout = 30, cases = { \"grows.lua\",\n"
         "  { script = \"grows.lua\", options = { programs = {2} }, timeout = 9 } } }\n";
  EXPECT_EQ(limits((dir / "suite2.lua").string(), {}), (std::vector<double>{70, 9}));

  // A sum outside the range --timeout takes is named with the script, not cut silently.
  o = {};
  o.options["programs"] = "-200";
  EXPECT_EQ(rejection(script, o),
            script +
                ": case table: field 'timeout' gives -40 s for this case, not a number of "
                "seconds from 0.1 to 86400");
  std::ofstream(dir / "typo.lua") << "return { ranks = 1, options = { n = {\"n\", 2} },\n"
                                     "  timeout = { 60, programs = 0.5 }, run = function() end }\n";
  EXPECT_NE(rejection((dir / "typo.lua").string())
                .find("typo.lua:2: case table: field 'timeout': 'programs' is not an option the "
                      "case declares with a number"),
            std::string::npos)
      << rejection((dir / "typo.lua").string());
}

// The recursive matcher took exponential time in the number of stars: 30 hung `list`.
TEST(Manifest, ExclusionPatternsMatchInBoundedTime) {
  const auto p = manifest("exclude",
                          "return { name = \"s\", exclude = \"ex.exclude\", "
                          "cases = { \"one.lua\" } }\n");
  const fs::path dir = fs::path(p).parent_path();
  std::ofstream(dir / "ex.exclude") << std::string(30, '*') + "z # never matches\n";
  Expansion e = expand(p, {});
  EXPECT_EQ(e.cases.size(), 1u);
  EXPECT_TRUE(e.excluded.empty());
  std::ofstream(dir / "ex.exclude") << "s/*ne*[*np=2* # the one case\n";
  e = expand(p, {});
  EXPECT_TRUE(e.cases.empty());
  ASSERT_EQ(e.excluded.size(), 1u);
  EXPECT_EQ(e.excluded[0].second, "the one case");
  std::ofstream(dir / "ex.exclude") << "s/one # no star: the whole id\n";
  EXPECT_EQ(expand(p, {}).cases.size(), 1u);
}

TEST(Manifest, ASuiteWithoutAListOfCasesIsToldSo) {
  // Not read as a case table (whose errors would be about `name` and `scripts_dir`).
  const auto p = manifest("nocases", "return { name = \"s\", scripts_dir = \".\" }\n");
  EXPECT_EQ(rejection(p), p + ": field 'cases': missing (a suite lists its cases there)");
  const auto q = manifest("casesstr", "return { name = \"s\", cases = \"one.lua\" }\n");
  EXPECT_EQ(
      rejection(q),
      q + ": field 'cases': expected a list of script paths or tables, got string \"one.lua\"");
}

TEST(Manifest, ABadSuiteDefaultNamesItsFieldNotTheFirstCase) {
  const auto p =
      manifest("ranks", "return { name = \"s\", ranks = \"two\", cases = { \"one.lua\" } }\n");
  EXPECT_EQ(rejection(p), p + ": field 'ranks': rank count 'two' is not in 1..1024");
  const auto q = manifest(
      "backends", "return { name = \"s\", backends = {\"nosuch\"}, cases = { \"one.lua\" } }\n");
  EXPECT_EQ(rejection(q), q + ": field 'backends': unknown backend 'nosuch' (known: shm fabric)");
  // A case's own list, misspelt, is shown the name meant.
  const auto r = manifest("paths",
                          "return { name = \"s\", cases = { { script = \"one.lua\", paths = "
                          "{\"drect\"} } } }\n");
  EXPECT_EQ(rejection(r), r + ": cases[1]: unknown path 'drect' (did you mean 'direct'?)");
}

TEST(Manifest, ASuiteWhoseTopLevelNeverReturnsIsStoppedWithItsLine) {
  // kTopLevelLimit is 10 s; this test waits for it once.
  const auto p = manifest("loop", "local n = 0\nwhile true do n = n + 1 end\n");
  const std::string r = rejection(p);
  EXPECT_EQ(r.rfind(p + ":2: the file's top level ran for more than 10 s", 0), 0u) << r;
}

}  // namespace
}  // namespace harness::suite
