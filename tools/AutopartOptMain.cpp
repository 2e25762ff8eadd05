// `autopart-opt`: an mlir-opt / sdy_opt shaped driver. Reads MLIR text, runs
// the passes named on the command line in order, prints the result. With no
// pass it round-trips the input through the parser and printer.
//
//   autopart-opt in.mlir -split-input-file -sdy-populate-op-sharding-rules -o out.mlir
#include <cstring>
#include <iostream>
#include <regex>

#include "asm/Parser.h"
#include "asm/Printer.h"
#include "ir/Pass.h"
#include "support/AtomicFile.h"
#include "support/Diagnostics.h"
#include "support/SplitInput.h"
#include "tools/VerifyDiagnostics.h"
#include "verify/Verifier.h"

using namespace autopart;

namespace {

struct PassInvocation {
  const PassInfo *pass;
  PassOptions options;
};

void usage() {
  std::cerr << "usage: autopart-opt [FILE|-] [-o OUT] [-split-input-file] "
               "[-verify-diagnostics] [-mlir-print-debuginfo] [-mlir-print-op-generic] "
               "[-PASS[=OPTIONS]]...\npasses:\n";
  for (const PassInfo *p : allPasses()) {
    std::cerr << "  -" << p->name << "  " << p->description << "\n";
    for (const PassOptionSpec &o : p->options)
      std::cerr << "      " << o.name << "=<" << o.type << ">  " << o.help << "\n";
  }
}

}  // namespace

int main(int argc, char **argv) {
  std::string input = "-", output = "-";
  bool split = false, verify = false;
  PrintOptions printOpts;
  std::vector<PassInvocation> pipeline;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") continue;
    if (a == "-h" || a == "--help" || a == "-help") {
      usage();
      return 0;
    }
    std::string flag = a;
    if (flag.starts_with("--")) flag = flag.substr(1);
    if (flag == "-o") {
      if (i + 1 >= argc) {
        std::cerr << "autopart-opt: -o needs a file name\n";
        return 1;
      }
      output = argv[++i];
    } else if (flag == "-split-input-file") {
      split = true;
    } else if (flag == "-verify-diagnostics") {
      verify = true;
    } else if (flag == "-mlir-print-debuginfo") {
      printOpts.printLocations = true;
    } else if (flag == "-mlir-print-op-generic") {
      printOpts.genericForm = true;
    } else if (flag == "-allow-unregistered-dialect" || flag.starts_with("-mlir-")) {
      // Accepted for compatibility; unregistered ops are always allowed, and
      // other printing flags have no effect on autopart's output.
    } else if (flag.size() > 1 && flag[0] == '-' && flag != "-") {
      std::string name = flag.substr(1), opts;
      size_t eq = name.find('=');
      if (eq != std::string::npos) {
        opts = name.substr(eq + 1);
        name = name.substr(0, eq);
      }
      const PassInfo *p = lookupPass(name);
      if (!p) {
        std::cerr << "autopart-opt: unknown pass or option '" << a << "'\n";
        usage();
        return 1;
      }
      PassOptions options = PassOptions::parse(opts);
      Diagnostics optionDiags;
      if (!checkPassOptions(*p, options, optionDiags)) {
        for (const Diagnostic &d : optionDiags.all()) std::cerr << "autopart-opt: error: " << d.message << "\n";
        return 1;
      }
      pipeline.push_back({p, std::move(options)});
    } else {
      input = a;
    }
  }

  std::string text;
  Diagnostics readDiags;
  if (!readFile(input, text, readDiags)) {
    for (const Diagnostic &d : readDiags.all()) std::cerr << "autopart-opt: " << d.message << "\n";
    return 1;
  }
  std::string fileName = input == "-" ? "<stdin>" : input;
  std::vector<std::string> chunks;
  if (split) {
    chunks = splitInputFile(text);
  } else {
    chunks.push_back(std::move(text));
  }
  bool failed = false;
  ExpectedDiagnostics expected;
  // Each chunk is parsed, transformed and printed straight into the output
  // (a temporary file renamed at the end), so only one module is alive.
  auto writeAll = [&](std::ostream &os) {
    bool first = true;
    for (std::string &chunk : chunks) {
      if (verify) expected.collect(chunk, fileName);
      Diagnostics diags;
      ParseError perr;
      std::unique_ptr<Module> m = parseModule(std::move(chunk), fileName, &perr);
      if (!m) {
        diags.emit(Severity::Error, fileName, perr.line, perr.col, perr.message);
        for (const ParseError &c : perr.context)
          diags.emit(Severity::Error, fileName, c.line, c.col, c.message);
      } else if (verifyModule(*m, diags)) {
        // As mlir-opt, the module is verified after parsing and after every
        // pass: a pass that breaks an invariant is caught where it happens.
        for (const PassInvocation &p : pipeline)
          if (!p.pass->run(*m, p.options, diags) || diags.hasErrors() || !verifyModule(*m, diags))
            break;
      }
      if (verify) {
        expected.consume(diags);
      } else {
        for (const Diagnostic &d : diags.all()) std::cerr << d.str() << "\n";
        if (diags.hasErrors()) failed = true;
      }
      if (m && !diags.hasErrors()) {
        if (!first) os << "// -----\n";
        first = false;
        if (!printModule(*m, os, printOpts)) return false;
      }
    }
    if (verify && !expected.finish(std::cerr)) failed = true;
    // A failed run leaves no output file behind (verify mode still prints).
    return !failed || verify;
  };
  Diagnostics writeDiags;
  if (!writeFileAtomicWith(output, writeAll, writeDiags)) {
    for (const Diagnostic &d : writeDiags.all()) std::cerr << "autopart-opt: " << d.message << "\n";
    return 1;
  }
  return failed ? 1 : 0;
}
