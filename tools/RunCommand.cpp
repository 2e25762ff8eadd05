// `autopart run FILE [--entry F] [--inputs random|zeros|FILE.npz] [--seed N]
// [--out FILE.npz|.npy] [--split-input-file]`: evaluates a program on the CPU
// (exec/) and prints or saves its results. check.* ops are assertions: a
// mismatch prints `file:line:col: error: check failed: ...` and the exit
// code is 1; so does an op the executor cannot run.
//
//   $ autopart run tests/interpret/add.mlir --split-input-file
//   checks: 12/12 passed
#include <fstream>
#include <iterator>
#include <iostream>

#include "asm/Parser.h"
#include "exec/Npy.h"
#include "exec/Run.h"
#include "support/SplitInput.h"
#include "tools/Command.h"
#include "tools/LoadModule.h"

namespace autopart {
namespace {

struct RunCmdOptions {
  std::string file, entry, inputs = "random", out;
  uint64_t seed = 0;
  bool split = false, quiet = false;
};

int runRun(const RunCmdOptions &o) {
  std::optional<ProgramText> p = readProgram(o.file);
  if (!p) return 1;
  std::vector<exec::TensorPtr> given;
  if (o.inputs.ends_with(".npz") || o.inputs.ends_with(".npy")) {
    try {
      if (o.inputs.ends_with(".npz")) {
        for (auto &[name, t] : exec::readNpz(o.inputs)) given.push_back(t);
      } else {
        std::ifstream in(o.inputs, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        given.push_back(exec::tensorFromNpy(bytes));
      }
    } catch (const std::exception &e) {
      std::cerr << "autopart run: error: --inputs: " << o.inputs << ": " << e.what() << "\n";
      return 1;
    }
  } else if (o.inputs != "random" && o.inputs != "zeros") {
    std::cerr << "autopart run: error: --inputs: '" << o.inputs << "' is not random, zeros or a .npz/.npy file\n";
    return 1;
  }
  std::vector<std::string> chunks = o.split ? splitInputFile(p->text) : std::vector<std::string>{p->text};
  int passed = 0, total = 0, errors = 0;
  std::vector<std::pair<std::string, exec::TensorPtr>> saved;
  for (std::string &chunk : chunks) {
    Diagnostics diags;
    std::unique_ptr<Module> m = parseProgram({std::move(chunk), p->fileName}, diags);
    if (!m) {
      printDiagnostics(diags, "autopart run");
      ++errors;
      continue;
    }
    exec::RunResult r = exec::runModule(*m, {o.entry, o.inputs, o.seed, given});
    passed += r.checksPassed;
    total += r.checksTotal;
    for (const exec::CheckFailure &f : r.failures) std::cerr << m->where(f.op) << ": error: check failed: " << f.message << "\n";
    for (const exec::FunctionRun &f : r.functions) {
      if (f.failed) {
        ++errors;
        std::cerr << (f.errorOp == kNone ? p->fileName : m->where(f.errorOp)) << ": error: " << f.error << "\n";
        continue;
      }
      for (size_t i = 0; i < f.results.size(); ++i) {
        std::string name = f.name + (f.results.size() > 1 ? "_" + std::to_string(i) : "");
        if (!o.out.empty()) saved.push_back({name, f.results[i]});
        else if (!o.quiet) std::cout << "@" << f.name << " result " << i << ": " << exec::tensorString(*f.results[i]) << "\n";
      }
    }
  }
  if (!o.out.empty()) {
    bool ok;
    if (o.out.ends_with(".npy")) {
      if (saved.size() != 1) {
        std::cerr << "autopart run: error: --out: " << saved.size() << " results do not fit one .npy (use .npz)\n";
        return 1;
      }
      std::ofstream os(o.out, std::ios::binary);
      os << exec::npyBytes(*saved[0].second);
      ok = bool(os);
    } else {
      ok = exec::writeNpz(o.out, saved);
    }
    if (!ok) {
      std::cerr << "autopart run: error: --out: cannot write " << o.out << "\n";
      return 1;
    }
  }
  std::cout << "checks: " << passed << "/" << total << " passed\n";
  return errors || passed != total ? 1 : 0;
}

CommandRegistration reg("run", "Evaluate a program on the CPU; check.* ops are assertions",
                        [](CLI::App &app) -> CommandRun {
                          auto o = std::make_shared<RunCmdOptions>();
                          app.add_option("file", o->file, "StableHLO MLIR file ('-' for stdin)")->required();
                          app.add_option("--entry", o->entry, "Function to run (default: main, else every function without arguments)");
                          app.add_option("--inputs", o->inputs, "Arguments of the entry: random, zeros, or FILE.npz (members in order) / FILE.npy (one argument)");
                          app.add_option("--seed", o->seed, "Seed of the random inputs");
                          app.add_option("--out", o->out, "Save the results as FILE.npz (or one result as FILE.npy)");
                          app.add_flag("--split-input-file", o->split, "Run each `// -----` chunk as its own module");
                          app.add_flag("--quiet", o->quiet, "Do not print results");
                          return [o] { return runRun(*o); };
                        });

}  // namespace
}  // namespace autopart
