// autopart_sharding_fuzz: a deterministic fuzzer of the meshes and shardings
// of real programs (docs/fuzzing.md). Each mutant (fuzz/ShardingMutator.h)
// is written to a file and given to the real binaries, as a user would:
//
//   autopart-opt MUTANT                                  (parse + verify)
//   autopart plan MUTANT --tactics dp -o OUT/plan.mlir   (plan + write)
//   autopart-opt OUT/plan.mlir                           (what was written)
//
// and the outcome is one of
//   rejected  both commands fail with `file:line:col: error: ...`, no file;
//   survived  both succeed and the written program parses and verifies;
//   BUG       a crash or sanitizer report, a hang, exit 3 (internal error),
//             an error without a location, a file left after a failure, a
//             written program that does not verify, the two commands
//             disagreeing, an invalid edit accepted or a valid one refused.
//
//   autopart_sharding_fuzz --seed 1 --mutants 88 --models ../shared/models/kimi_k2_1layer_sharded.mlir
//   kind                        n  rejected  survived  BUG ...
//   unknown-axis                4         4         0    0
//   ...
// exits 1 when there is a BUG (each printed with a reproducer), 0 otherwise.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "fuzz/ShardingMutator.h"
#include "fuzz/Subprocess.h"

namespace fs = std::filesystem;

namespace autopart {
namespace {

struct Options {
  uint64_t seed = 1;
  size_t mutants = 100;
  std::vector<std::string> models;
  std::string autopart, opt;
  std::string work;           // scratch and reproducers; default a temp dir
  std::string baseMesh = "data=2,model=4";
  double timeout = 60;
  bool verbose = false;
};

enum class Outcome {
  Rejected,
  Survived,
  Crash,
  Timeout,
  Internal,
  Unlocated,
  OutputLeft,
  OutputInvalid,
  Disagree,
  Missed,
  FalseReject,
  kCount
};

const char *outcomeName(Outcome o) {
  static const char *names[] = {"rejected",  "survived", "crash",     "timeout",  "internal",   "unlocated",
                                "out-left",  "out-bad",  "disagree",  "missed",   "false-rej"};
  return names[int(o)];
}

bool isBug(Outcome o) { return o != Outcome::Rejected && o != Outcome::Survived; }

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool writeText(const std::string &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
  return bool(out);
}

std::string firstLines(const std::string &text, size_t n) {
  std::string out;
  std::istringstream in(text);
  std::string line;
  for (size_t i = 0; i < n && std::getline(in, line); ++i) out += "    " + line.substr(0, 400) + "\n";
  return out;
}

// A crash under the sanitizers ends with exit 1, so their reports count too.
bool crashed(const ProcessResult &r) {
  return r.signal != 0 || r.stderrText.find("AddressSanitizer") != std::string::npos ||
         r.stderrText.find("runtime error:") != std::string::npos ||
         r.stderrText.find("LeakSanitizer") != std::string::npos;
}

// An error located in the mutant: `<file>:<line>:<col>: error: `.
bool locatedError(const ProcessResult &r, const std::string &file) {
  std::regex located(std::regex_replace(file, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                     R"(:\d+:\d+: error: )");
  return std::regex_search(r.stderrText, located);
}

struct Run {
  Outcome outcome = Outcome::Rejected;
  std::string detail;  // why it is a BUG, with the commands' stderr
};

// Runs the binaries on one mutant and classifies what they did.
Run judge(const Options &o, const Mutant &mutant, const std::string &file) {
  fs::path outDir = fs::path(o.work) / "out";
  fs::remove_all(outDir);
  fs::create_directories(outDir);
  std::string outFile = (outDir / "plan.mlir").string();
  std::string errFile = (fs::path(o.work) / "stderr.txt").string();
  ProcessResult verify = runProcess({o.opt, file}, o.timeout, errFile);
  ProcessResult plan = runProcess({o.autopart, "plan", file, "--tactics", "dp", "-o", outFile}, o.timeout, errFile);
  auto bug = [&](Outcome out, const std::string &why) {
    return Run{out, why + "\n  autopart-opt: exit " + std::to_string(verify.exitCode) + "\n" +
                        firstLines(verify.stderrText, 3) + "  autopart plan: exit " + std::to_string(plan.exitCode) +
                        "\n" + firstLines(plan.stderrText, 3)};
  };
  if (crashed(verify) || crashed(plan)) return bug(Outcome::Crash, "a crash or sanitizer report");
  if (verify.timedOut || plan.timedOut) return bug(Outcome::Timeout, "no answer within the time limit");
  if (verify.exitCode == 3 || plan.exitCode == 3) return bug(Outcome::Internal, "internal error (exit 3)");
  bool verifyOk = verify.exitCode == 0, planOk = plan.exitCode == 0;
  bool leftovers = !fs::is_empty(outDir);
  if (!planOk && leftovers) return bug(Outcome::OutputLeft, "plan failed but left a file in " + outDir.string());
  if (!verifyOk && !locatedError(verify, file))
    return bug(Outcome::Unlocated, "autopart-opt failed without a located error");
  if (!planOk && !locatedError(plan, file)) return bug(Outcome::Unlocated, "plan failed without a located error");
  if (verifyOk != planOk)
    return bug(Outcome::Disagree, verifyOk ? "the verifier accepts it but plan refuses it"
                                           : "the verifier rejects it but plan writes a plan");
  if (!verifyOk) {
    if (mutant.expect == Expectation::Accept)
      return bug(Outcome::FalseReject, "a valid edit is rejected");
    return {Outcome::Rejected, ""};
  }
  if (mutant.expect == Expectation::Reject) return bug(Outcome::Missed, "an invalid edit is accepted");
  ProcessResult reread = runProcess({o.opt, outFile}, o.timeout, errFile);
  if (crashed(reread) || reread.timedOut || reread.exitCode != 0) {
    Run r = bug(Outcome::OutputInvalid, "the written plan does not re-read");
    r.detail += "  autopart-opt " + outFile + ": exit " + std::to_string(reread.exitCode) + "\n" +
                firstLines(reread.stderrText, 3);
    return r;
  }
  return {Outcome::Survived, ""};
}

// The program each model is mutated from: the model itself when it has a
// mesh, else the plan `autopart plan --mesh <base> --tactics dp,megatron`
// (or dp) makes of it, so that there are shardings to mutate.
std::optional<std::string> baseProgram(const Options &o, const std::string &model) {
  std::string text = readText(model);
  if (text.empty()) return std::nullopt;
  if (text.find("sdy.mesh") != std::string::npos) return text;
  std::string out = (fs::path(o.work) / "base.mlir").string();
  std::string err = (fs::path(o.work) / "stderr.txt").string();
  for (const char *tactics : {"dp,megatron", "dp"}) {
    fs::remove(out);
    ProcessResult r =
        runProcess({o.autopart, "plan", model, "--mesh", o.baseMesh, "--tactics", tactics, "-o", out}, o.timeout, err);
    if (r.exitCode == 0) return readText(out);
  }
  return std::nullopt;
}

struct Tally {
  size_t counts[size_t(Outcome::kCount)] = {};
  size_t notApplicable = 0;
  size_t total() const {
    size_t n = 0;
    for (size_t c : counts) n += c;
    return n;
  }
};

void printTable(const std::map<std::string, Tally> &byKind) {
  std::cout << std::left << std::setw(28) << "kind" << std::right << std::setw(5) << "n";
  for (int i = 0; i < int(Outcome::kCount); ++i) std::cout << std::setw(10) << outcomeName(Outcome(i));
  std::cout << std::setw(6) << "n/a" << "\n";
  Tally all;
  for (const std::string &kind : mutationKinds()) {
    auto it = byKind.find(kind);
    Tally t = it == byKind.end() ? Tally{} : it->second;
    std::cout << std::left << std::setw(28) << kind << std::right << std::setw(5) << t.total();
    for (int i = 0; i < int(Outcome::kCount); ++i) {
      std::cout << std::setw(10) << t.counts[i];
      all.counts[i] += t.counts[i];
    }
    std::cout << std::setw(6) << t.notApplicable << "\n";
    all.notApplicable += t.notApplicable;
  }
  std::cout << std::left << std::setw(28) << "total" << std::right << std::setw(5) << all.total();
  for (int i = 0; i < int(Outcome::kCount); ++i) std::cout << std::setw(10) << all.counts[i];
  std::cout << std::setw(6) << all.notApplicable << "\n";
}

int usage(const char *why) {
  std::cerr << "autopart_sharding_fuzz: " << why
            << "\nusage: autopart_sharding_fuzz [--seed N] [--mutants K] --models DIR|FILE... [--autopart BIN]"
               " [--opt BIN] [--work DIR] [--timeout S] [--base-mesh a=2,b=4] [-v]\n";
  return 2;
}

std::string siblingBinary(const char *name) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(name) : (self.parent_path() / name).string();
}

int run(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--seed")
      o.seed = std::stoull(value());
    else if (a == "--mutants")
      o.mutants = std::stoull(value());
    else if (a == "--models") {
      while (i + 1 < argc && argv[i + 1][0] != '-') o.models.push_back(argv[++i]);
    } else if (a == "--autopart")
      o.autopart = value();
    else if (a == "--opt")
      o.opt = value();
    else if (a == "--work")
      o.work = value();
    else if (a == "--timeout")
      o.timeout = std::stod(value());
    else if (a == "--base-mesh")
      o.baseMesh = value();
    else if (a == "-v" || a == "--verbose")
      o.verbose = true;
    else
      return usage(("unknown argument " + a).c_str());
  }
  if (o.autopart.empty()) o.autopart = siblingBinary("autopart");
  if (o.opt.empty()) o.opt = siblingBinary("autopart-opt");
  std::vector<std::string> files;
  for (const std::string &m : o.models) {
    if (fs::is_directory(m)) {
      std::vector<std::string> inDir;
      for (const auto &e : fs::directory_iterator(m))
        if (e.path().extension() == ".mlir") inDir.push_back(e.path().string());
      std::sort(inDir.begin(), inDir.end());
      files.insert(files.end(), inDir.begin(), inDir.end());
    } else {
      files.push_back(m);
    }
  }
  if (files.empty()) return usage("no --models");
  if (o.work.empty()) {
    std::string tmpl = (fs::temp_directory_path() / "autopart-sfuzz-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) return usage("cannot make a temporary directory");
    o.work = tmpl;
  }
  fs::create_directories(o.work);

  struct Base {
    std::string model, text;
  };
  std::vector<Base> bases;
  size_t bugs = 0;
  std::string file = (fs::path(o.work) / "mutant.mlir").string();
  for (const std::string &f : files) {
    std::optional<std::string> text = baseProgram(o, f);
    if (!text) {
      std::cout << "skipped " << f << ": no base plan\n";
      continue;
    }
    // The unedited program must survive, else every mutant would fail for
    // the same reason: reported once, and the model left out.
    Mutant unedited{"base", Expectation::Accept, "none", ""};
    if (!printProgram(*text, unedited.text)) {
      std::cout << "skipped " << f << ": does not parse\n";
      continue;
    }
    writeText(file, unedited.text);
    Run r = judge(o, unedited, file);
    if (r.outcome != Outcome::Survived) {
      ++bugs;
      std::string keep = (fs::path(o.work) / ("bug-base-" + fs::path(f).filename().string())).string();
      fs::copy_file(file, keep, fs::copy_options::overwrite_existing);
      std::cout << "BUG " << outcomeName(r.outcome) << ": the unedited base of " << f
                << " (left out of the campaign)\n  why: " << r.detail << "  reproduce: " << o.autopart << " plan "
                << keep << " --tactics dp -o /tmp/plan.mlir\n";
      continue;
    }
    bases.push_back({fs::path(f).filename().string(), std::move(*text)});
  }
  if (bases.empty()) return usage("no usable model");

  std::mt19937_64 rng(o.seed);
  std::map<std::string, Tally> byKind;
  const std::vector<std::string> &kinds = mutationKinds();
  for (size_t i = 0; i < o.mutants; ++i) {
    const std::string &kind = kinds[i % kinds.size()];
    // The first model drawn that has a place for this kind.
    size_t start = std::uniform_int_distribution<size_t>(0, bases.size() - 1)(rng);
    Mutant mutant;
    const Base *base = nullptr;
    for (size_t k = 0; k < bases.size() && !base; ++k) {
      const Base &b = bases[(start + k) % bases.size()];
      if (mutateProgram(b.text, kind, rng, mutant)) base = &b;
    }
    if (!base) {
      ++byKind[kind].notApplicable;
      continue;
    }
    writeText(file, mutant.text);
    Run r = judge(o, mutant, file);
    ++byKind[kind].counts[int(r.outcome)];
    if (o.verbose)
      std::cout << "#" << i << " " << kind << " on " << base->model << " (" << expectationName(mutant.expect)
                << "): " << outcomeName(r.outcome) << "\n  " << mutant.what << "\n";
    if (!isBug(r.outcome)) continue;
    ++bugs;
    std::string keep = (fs::path(o.work) / ("bug-" + std::to_string(i) + "-" + kind + ".mlir")).string();
    fs::copy_file(file, keep, fs::copy_options::overwrite_existing);
    std::cout << "BUG " << outcomeName(r.outcome) << ": mutant #" << i << " " << kind << " of " << base->model
              << " (expected: " << expectationName(mutant.expect) << ")\n  edit: " << mutant.what
              << "\n  why: " << r.detail << "  reproduce: " << o.opt << " " << keep << "; " << o.autopart
              << " plan " << keep << " --tactics dp -o /tmp/plan.mlir\n";
  }
  std::cout << "seed " << o.seed << ", " << o.mutants << " mutants of " << bases.size() << " program(s), work dir "
            << o.work << "\n";
  printTable(byKind);
  std::cout << (bugs ? std::to_string(bugs) + " BUG(s)" : std::string("no BUG")) << "\n";
  return bugs ? 1 : 0;
}

}  // namespace
}  // namespace autopart

int main(int argc, char **argv) { return autopart::run(argc, argv); }
