// Copies of functions under new names, as MLIR's symbol table names them:
// `<name>_<N>` with one counter for the whole module (skipping taken
// names), tagged with `sdy.original_func_name`. A copied function's calls
// are retargeted to copies of their callees too, callees first, so no two
// call sites share a callee afterwards.
//
//   @foo calls @bar;  cloneRecursively(@foo)  ->  @bar_0, then @foo_1 calling @bar_0
#pragma once

#include <set>
#include <string>
#include <vector>

#include "ir/Module.h"

namespace autopart {

class FunctionCloner {
public:
  explicit FunctionCloner(Module &m);

  // Copies `func` (and recursively its callees) to the end of the module;
  // returns the copy's name. A call back into a function being copied
  // keeps its callee.
  std::string cloneRecursively(OpId func);
  // The copies made so far, in creation order.
  const std::vector<OpId> &created() const { return created_; }

private:
  Module &m_;
  BlockId body_;
  std::set<std::string> used_;
  uint32_t counter_ = 0;
  std::vector<OpId> created_;
  std::vector<OpId> active_;

  std::string uniqueName(const std::string &base);
};

}  // namespace autopart
