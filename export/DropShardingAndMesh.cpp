// `-sdy-drop-sharding-and-mesh`: strips a module of Shardy: every
// `sdy.sharding` attribute (on ops, arguments and results) and every
// `sdy.mesh` symbol.
//
//   sdy.mesh @m = <["x"=2]>
//   func.func @f(%a: tensor<2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) ...
//   -> func.func @f(%a: tensor<2xf32>) ...
#include "export/StripAttributes.h"
#include "ir/Pass.h"

namespace autopart {

namespace {

PassRegistration reg("sdy-drop-sharding-and-mesh", "Removes every sdy.sharding attribute and sdy.mesh op",
                     [](Module &m, const PassOptions &, Diagnostics &) {
                       if (m.top == kNone) return true;
                       stripAttributes(m, {"sdy.sharding"});
                       std::vector<OpId> meshes;
                       m.walk(m.top, [&](OpId op) {
                         if (m.isa(op, "sdy.mesh")) meshes.push_back(op);
                       });
                       for (OpId op : meshes) m.eraseOp(op);
                       return true;
                     });

}  // namespace

}  // namespace autopart
