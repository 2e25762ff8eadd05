#include "tools/LoadModule.h"

#include <iostream>

#include "asm/Parser.h"
#include "sim/ShardingMap.h"
#include "tools/Command.h"

namespace autopart {

std::unique_ptr<Module> loadModule(const std::string &path) {
  std::string text;
  Diagnostics diags;
  if (!readFile(path, text, diags)) {
    printDiagnostics(diags, "autopart");
    return nullptr;
  }
  ParseError perr;
  std::unique_ptr<Module> m = parseModule(std::move(text), path == "-" ? "<stdin>" : path, &perr);
  if (!m) std::cerr << perr.full << "\n";
  return m;
}

OpId findPlannableEntry(const Module &m, const std::string &wanted, const char *command) {
  OpId func = m.findEntryFunction(wanted);
  if (func == kNone) {
    std::cerr << "autopart " << command << ": error: no entry function"
              << (wanted.empty() ? "" : " named '" + wanted + "'") << " with a body\n";
    return kNone;
  }
  FuncView f{m, func};
  for (ValueId v : f.args())
    if (m.types.hasDynamicDim(m.type(v))) {
      std::cerr << m.fileName << ": error: argument of type " << m.types.str(m.type(v))
                << " has dynamic dimensions, which planning does not support\n";
      return kNone;
    }
  return func;
}

bool seedInputShardings(const Module &m, OpId func, bool propagate, ShardingVector &state, Diagnostics &diags,
                        CompletionStats *stats) {
  if (!propagate || countUserShardings(m) == 0 || !m.source) {
    if (stats) stats->userShardings = countUserShardings(m);
    seedFromInput(m, func, state);
    return true;
  }
  ParseError perr;
  std::unique_ptr<Module> copy = parseModule(*m.source, m.fileName, &perr);
  if (!copy) {
    diags.error(perr.full);
    return false;
  }
  if (!completeShardingsAsXla(*copy, diags, stats)) return false;
  // Every value XLA's propagation reaches, not only the arguments: a tactic
  // that adds nothing to an argument still plans around the completed ops.
  ShardingMap completed = ShardingMap::fromModule(*copy);
  for (ValueId v = 0; v < state.size() && v < copy->values.size(); ++v)
    if (const TensorSharding *s = completed.get(v)) state[v] = *s;
  return true;
}

}  // namespace autopart
