// autopart_exec_fuzz: a deterministic mutation fuzzer of the CPU executor
// (docs/fuzzing.md). Seeds are the `// -----` chunks of real programs
// (StableHLO's interpreter tests, examples/, small shared models); each
// mutant changes one to three sites of one seed and is run as a user would:
//
//   autopart run MUTANT --quiet --seed N      (random inputs for @main)
//
//   dense<[1.0, 2.0]>          -> dense<[1.0, 3.0e+38]>       (constant)
//   stablehlo.add %a, %b       -> stablehlo.remainder %a, %b  (binary-op)
//   dimensions = [1]           -> dimensions = [7]            (int-attr)
//   tensor<2x3xf32>            -> tensor<2x0xf32>             (shape)
//   comparison_direction LT    -> comparison_direction GE     (direction)
//
// Outcomes: `ran` (exit 0), `error` (exit 1 with a located
// `file:line:col: error:` - a parse, verify, check or unsupported-op error),
// `slow` (still computing at the time limit: busy for at least a twentieth of
// it, e.g. a `while` whose mutated bound means billions of iterations; not a
// BUG, but kept as WORK/slow-N.mlir to look at), or a BUG: `crash` (a signal
// or a sanitizer report), `hang` (no answer in the time limit and idle: a
// deadlock or a wait that never ends), `internal` (any other exit code) and
// `unlocated` (exit 1 without a located error). Each BUG is saved as
// WORK/bug-N.mlir with the command's stderr; the exit code is 1 if any.
//
//   autopart_exec_fuzz --seconds 600 --autopart build/bin/autopart
//       ../shared/peer/stablehlo/stablehlo/tests/interpret examples   (one line)
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <random>
#include <regex>
#include <sstream>

#include "fuzz/Subprocess.h"

namespace fs = std::filesystem;

namespace autopart {
namespace {

struct Options {
  uint64_t seed = 1;
  size_t mutants = 0;   // stop after this many (0: no limit)
  double seconds = 0;   // stop after this long (0: no limit)
  double timeout = 10;  // per execution
  size_t maxChunk = 30000;
  std::string autopart = "build/bin/autopart";
  std::string work;
  std::vector<std::string> corpus;
};

enum Outcome { kRan, kError, kSlow, kCrash, kHang, kInternal, kUnlocated, kOutcomes };
const char *kOutcomeNames[] = {"ran", "error", "slow", "crash", "hang", "internal", "unlocated"};

// A timed-out run that used at least this share of the time limit on the
// CPU was computing (slow), one below it was waiting (a hang). A deadlocked
// executor uses no CPU at all; a busy one on a loaded machine (a dozen jobs
// on two cores) still gets more than a twentieth of the time.
constexpr double kBusyShare = 0.05;

std::string readText(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every `// -----` chunk of every .mlir file under the corpus paths that has
// a function and is small enough to run quickly.
std::vector<std::string> loadSeeds(const Options &o) {
  std::vector<fs::path> files;
  for (const std::string &c : o.corpus) {
    if (fs::is_directory(c)) {
      for (const auto &e : fs::recursive_directory_iterator(c))
        if (e.is_regular_file() && e.path().extension() == ".mlir") files.push_back(e.path());
    } else if (fs::exists(c)) {
      files.push_back(c);
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> seeds;
  std::regex split(R"(\n// -----[^\n]*\n)");
  for (const fs::path &f : files) {
    std::string text = readText(f);
    for (std::sregex_token_iterator it(text.begin(), text.end(), split, -1), end; it != end; ++it) {
      std::string chunk = *it;
      if (chunk.size() <= o.maxChunk && chunk.find("func.func") != std::string::npos) seeds.push_back(chunk);
    }
  }
  return seeds;
}

// A mutation kind: where it applies (a regex whose submatch 1 is replaced)
// and what may replace it, given the matched text.
struct Mutator {
  const char *name;
  std::regex site;
  std::vector<std::string> (*choices)(const std::string &matched, const std::string &text);
};

std::vector<std::string> constantChoices(const std::string &m, const std::string &) {
  if (m == "true" || m == "false") return {"true", "false"};
  if (m.find_first_of(".eE") != std::string::npos)
    return {"0.0", "-0.0", "1.0", "-3.5", "3.0e+38", "-3.4e+38", "1.0e-45", "65504.0", "0x7FC00000", "0x7F800000"};
  return {"0", "-1", "1", "2", "3", "7", "-128", "255", "65535", "2147483647", "-2147483648", "9223372036854775807"};
}

std::vector<std::string> binaryChoices(const std::string &, const std::string &) {
  return {"add",       "subtract", "multiply", "divide", "maximum",    "minimum",
          "remainder", "power",    "and",      "or",     "xor",        "shift_left",
          "atan2",     "shift_right_arithmetic",         "shift_right_logical"};
}

std::vector<std::string> unaryChoices(const std::string &, const std::string &) {
  return {"abs",   "negate", "exponential", "exponential_minus_one", "log",   "log_plus_one",
          "sqrt",  "rsqrt",  "cbrt",        "tanh",                  "logistic", "sine",
          "cosine", "tan",   "floor",       "ceil",                  "round_nearest_even",
          "round_nearest_afz", "sign",      "not",                   "popcnt", "count_leading_zeros"};
}

std::vector<std::string> intChoices(const std::string &, const std::string &) { return {"-1", "0", "1", "2", "3", "4", "7", "100000"}; }
std::vector<std::string> dimChoices(const std::string &, const std::string &) { return {"0", "1", "2", "3", "5"}; }
std::vector<std::string> directionChoices(const std::string &, const std::string &) { return {"EQ", "NE", "LT", "LE", "GT", "GE"}; }

// Another value of the program: every SSA name defined in it (results
// `%x =` / `%x:2 =` and block arguments `%x:`), so that an op gets an operand
// of a type other than the one it declares.
std::vector<std::string> valueChoices(const std::string &, const std::string &text) {
  static const std::regex def(R"((%[A-Za-z_][\w$.-]*|%\d+)(?::\d+)?\s*[=:])");
  std::vector<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), def), end; it != end; ++it) out.push_back((*it)[1]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Mutator> makeMutators() {
  const char *num = R"((-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+|-?\d+|true|false))";
  return {
      // A number inside a dense literal (constants, replica groups, pairs).
      {"constant", std::regex(std::string(R"(dense<[^>]*?)") + num), constantChoices},
      {"binary-op",
       std::regex(R"(stablehlo\.(add|subtract|multiply|divide|maximum|minimum|remainder|power|and|or|xor|shift_left|)"
                  R"(shift_right_arithmetic|shift_right_logical|atan2)\b)"),
       binaryChoices},
      {"unary-op",
       std::regex(R"(stablehlo\.(abs|negate|exponential|exponential_minus_one|log|log_plus_one|sqrt|rsqrt|cbrt|tanh|)"
                  R"(logistic|sine|cosine|tan|floor|ceil|round_nearest_even|round_nearest_afz|sign|not|popcnt|)"
                  R"(count_leading_zeros)\b)"),
       unaryChoices},
      // An integer of a dimension-number or window attribute.
      {"int-attr",
       std::regex(R"((?:dims|dimensions|permutation|_dims|dimension|strides|sizes|indices|_padding|_low|_high|)"
                  R"(split_count|index_vector_dim|_map|slice_sizes|_dim|contracting_dims|batching_dims|)"
                  R"(window_dimensions|window_strides|window_dilations|base_dilations|padding)\s*=\s*)"
                  R"((?:array<i64:\s*|dense<)?\[?(?:[-\d]+\s*,\s*)*(-?\d+))"),
       intChoices},
      {"shape", std::regex(R"(tensor<(?:\d+x)*(\d+)x[a-z])"), dimChoices},
      {"direction", std::regex(R"(\b(EQ|NE|LT|LE|GT|GE)\b)"), directionChoices},
      // An integer of a convolution window, a group count, k, iota's dimension.
      {"window",
       std::regex(R"(\b(?:stride|pad|lhs_dilate|rhs_dilate|reverse|feature_group_count|batch_group_count|)"
                  R"(iota_dimension|k|dim)\s*=\s*\[*(?:[-\w]+\]*\s*,\s*\[*)*(-?\d+))"),
       intChoices},
      // A use of a value (an operand, not a definition) replaced by another value.
      {"operand", std::regex(R"([(,\s](%[A-Za-z_][\w$.-]*|%\d+)(?![\w$.-]*(?::\d+)?\s*[=:]))"), valueChoices},
  };
}

// Applies mutator `k` at a random site of `text`; false when it has none.
bool mutate(std::string &text, const Mutator &k, std::mt19937_64 &rng) {
  std::vector<std::pair<size_t, size_t>> sites;  // submatch 1: offset, length
  for (std::sregex_iterator it(text.begin(), text.end(), k.site), end; it != end; ++it)
    if ((*it)[1].matched) sites.push_back({size_t(it->position(1)), size_t(it->length(1))});
  if (sites.empty()) return false;
  auto [pos, len] = sites[rng() % sites.size()];
  std::string old = text.substr(pos, len);
  std::vector<std::string> choices = k.choices(old, text);
  choices.erase(std::remove(choices.begin(), choices.end(), old), choices.end());
  if (choices.empty()) return false;
  text.replace(pos, len, choices[rng() % choices.size()]);
  return true;
}

bool crashed(const ProcessResult &r) {
  return r.signal != 0 || r.stderrText.find("AddressSanitizer") != std::string::npos ||
         r.stderrText.find("runtime error:") != std::string::npos;
}

Outcome classify(const ProcessResult &r, const std::string &file, double timeout) {
  if (crashed(r)) return kCrash;
  if (r.timedOut) return r.cpuSeconds >= kBusyShare * timeout ? kSlow : kHang;
  if (r.exitCode == 0) return kRan;
  if (r.exitCode != 1) return kInternal;
  return r.stderrText.find(file + ":") != std::string::npos && r.stderrText.find(": error: ") != std::string::npos
             ? kError
             : kUnlocated;
}

int run(const Options &o) {
  std::vector<std::string> seeds = loadSeeds(o);
  if (seeds.empty()) {
    std::cerr << "autopart_exec_fuzz: error: no seed programs under the corpus paths\n";
    return 1;
  }
  fs::path work = o.work.empty() ? fs::temp_directory_path() / ("autopart-exec-fuzz-" + std::to_string(getpid()))
                                 : fs::path(o.work);
  fs::create_directories(work);
  std::vector<Mutator> mutators = makeMutators();
  std::map<std::string, std::array<size_t, kOutcomes>> counts;
  std::mt19937_64 rng(o.seed);
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  size_t executions = 0, bugs = 0, slow = 0, slowWithWhile = 0;
  const std::string file = (work / "mutant.mlir").string(), errFile = (work / "stderr.txt").string();
  while ((o.mutants == 0 || executions < o.mutants) && (o.seconds == 0 || elapsed() < o.seconds)) {
    std::string text = seeds[rng() % seeds.size()];
    std::string kinds;
    size_t edits = 1 + rng() % 3;
    for (size_t tries = 0; tries < 8 && edits; ++tries) {
      const Mutator &k = mutators[rng() % mutators.size()];
      if (!mutate(text, k, rng)) continue;
      kinds = kinds.empty() ? k.name : kinds.find(k.name) == std::string::npos ? "mixed" : kinds;
      --edits;
    }
    if (kinds.empty()) continue;
    std::ofstream(file) << text;
    std::string inputSeed = std::to_string(rng() % 1000);
    ProcessResult r = runProcess({o.autopart, "run", file, "--quiet", "--seed", inputSeed}, o.timeout, errFile);
    ++executions;
    Outcome out = classify(r, file, o.timeout);
    ++counts[kinds][out];
    if (out == kSlow || out >= kCrash) {
      bool bug = out != kSlow;
      std::string name = (bug ? "bug-" + std::to_string(++bugs) : "slow-" + std::to_string(++slow)) + ".mlir";
      slowWithWhile += !bug && text.find("stablehlo.while") != std::string::npos;
      fs::path saved = work / name;
      std::ofstream(saved) << "// " << kOutcomeNames[out] << ": autopart run " << name << " --quiet --seed "
                           << inputSeed << "\n"
                           << text;
      std::ofstream(saved.string() + ".stderr") << r.stderrText;
      std::cout << (bug ? "BUG " : "") << kOutcomeNames[out] << " (" << kinds << "): " << saved.string();
      if (r.timedOut) std::cout << " (cpu " << std::fixed << std::setprecision(1) << r.cpuSeconds << " s)";
      std::cout << "\n";
    }
  }
  std::cout << "executions " << executions << " in " << std::fixed << std::setprecision(0) << elapsed() << " s over "
            << seeds.size() << " seeds\n"
            << std::left << std::setw(12) << "kind";
  for (const char *n : kOutcomeNames) std::cout << std::right << std::setw(10) << n;
  std::cout << "\n";
  for (auto &[kind, row] : counts) {
    std::cout << std::left << std::setw(12) << kind;
    for (size_t n : row) std::cout << std::right << std::setw(10) << n;
    std::cout << "\n";
  }
  std::cout << "slow: " << slow << " (" << slowWithWhile << " with a stablehlo.while)\n";
  std::cout << "BUGs: " << bugs << (bugs ? " (reproducers in " + work.string() + ")" : "") << "\n";
  return bugs ? 1 : 0;
}

}  // namespace
}  // namespace autopart

int main(int argc, char **argv) {
  autopart::Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "autopart_exec_fuzz: error: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seed") o.seed = std::stoull(value());
    else if (a == "--mutants") o.mutants = std::stoull(value());
    else if (a == "--seconds") o.seconds = std::stod(value());
    else if (a == "--timeout") o.timeout = std::stod(value());
    else if (a == "--autopart") o.autopart = value();
    else if (a == "--work") o.work = value();
    else if (a.starts_with("--")) {
      std::cerr << "autopart_exec_fuzz: error: unknown option " << a << "\n";
      return 2;
    } else o.corpus.push_back(a);
  }
  return autopart::run(o);
}
