// Writes a plan into the module the way XLA consumes it: one `sdy.mesh` at
// the top of the module and `sdy.sharding` on every argument and result of
// the planned function (replicated ones written as `[{}, {}]`, closed, so XLA
// does not re-shard them), optionally each also as a GSPMD `mhlo.sharding`.
//
//   sdy.mesh @mesh = <["data"=8, "model"=4]>
//   func.func @main(%arg0: tensor<256x1024xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>})
#pragma once

#include <functional>
#include <string>

#include "ir/Module.h"
#include "ir/Sharding.h"

namespace autopart {

// Returns the GSPMD string for a sharding, or an empty string when none.
using GspmdWriter = std::function<std::string(const TensorSharding &, const Mesh &)>;

struct AnnotateOptions {
  std::string meshName = "mesh";
  GspmdWriter gspmd;  // set to also write `mhlo.sharding`
};

// Inserts (or replaces) `sdy.mesh @<meshName>` in the top module.
void setModuleMesh(Module &m, const std::string &name, const Mesh &mesh);

// `argSharding(i)` gives argument i's sharding (null: replicated), and
// `resultSharding(i)` result i's (null: not written); all are written closed.
void annotateFunction(Module &m, OpId func, const Mesh &mesh, const AnnotateOptions &opts,
                      const std::function<const TensorSharding *(size_t)> &argSharding,
                      const std::function<const TensorSharding *(size_t)> &resultSharding);

// Writes `sdy.sharding = #sdy.sharding_per_value<[...]>` on every op nested in
// `func` with at least one sharded result, so XLA partitions intermediate
// values as planned instead of re-deriving them. `sharding(v)` gives a
// value's sharding or null (written replicated).
void annotateOps(Module &m, OpId func, const std::string &meshName,
                 const std::function<const TensorSharding *(ValueId)> &sharding);

// Writes `sdy.sharding = #sdy.sharding_per_value<[...]>` on `op`: each
// result's sharding from `sharding(v)` (null: replicated), closed.
void writeOpShardings(Module &m, OpId op, const std::string &meshName,
                      const std::function<const TensorSharding *(ValueId)> &sharding);

// All of the above for a plan of `func` and of every function it calls
// (directly or not): the mesh, every op's results, the arguments, and the
// results as the values returned (`sharding(v)`: a value's sharding or
// null: replicated, written as such on results too).
void annotatePlan(Module &m, OpId func, const Mesh &mesh, const AnnotateOptions &opts,
                  const std::function<const TensorSharding *(ValueId)> &sharding);

}  // namespace autopart
