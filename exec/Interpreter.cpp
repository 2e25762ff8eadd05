#include "exec/Interpreter.h"

#include <unordered_map>

#include "exec/DenseLiteral.h"
#include "exec/OpVerifier.h"
#include "exec/QuantizedOps.h"

namespace autopart::exec {
namespace {

std::unordered_map<std::string, Kernel> &registry() {
  static std::unordered_map<std::string, Kernel> r;
  return r;
}

}  // namespace

KernelRegistration::KernelRegistration(std::initializer_list<const char *> names, Kernel k) {
  for (const char *n : names) registry()[n] = k;
}

Kernel findKernel(std::string_view name) {
  auto it = registry().find(std::string(name));
  return it == registry().end() ? nullptr : it->second;
}

Interpreter::Interpreter(const Module &module)
    : m(module), values_(module.values.size()), verified_(module.ops.size(), 0) {}

TensorPtr Interpreter::operand(OpId op, uint32_t i) const {
  const TensorPtr &t = values_[m.operand(op, i)];
  if (!t) fail(op, "operand #" + std::to_string(i) + " has no value (defined by an op that did not run)");
  return t;
}

TensorPtr Interpreter::newResult(OpId op, uint32_t i) const {
  try {
    return makeTensorOfType(m.types, resultType(op, i));
  } catch (const std::runtime_error &e) {
    fail(op, e.what());
  }
}

TensorPtr Interpreter::newUninitializedResult(OpId op, uint32_t i) const {
  TypeId t = resultType(op, i);
  if (!m.types.isTensor(t) || m.types.hasDynamicDim(t)) return newResult(op, i);
  return makeUninitialized(resultDType(op, i), m.types.shape(t));
}

DType Interpreter::resultDType(OpId op, uint32_t i) const {
  try {
    return dtypeOf(m.types, m.types.elementType(resultType(op, i)));
  } catch (const std::runtime_error &e) {
    fail(op, e.what());
  }
}

std::vector<int64_t> Interpreter::ints(OpId op, std::string_view name) const {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr) return {};
  if (m.attrs.kind(a) == AttrKind::DenseElements) {
    const AttrStorage &s = m.attrs.get(a);
    std::vector<int64_t> shape = m.types.shape(s.type);
    TensorPtr t = decodeDense(s.body, dtypeByName("i64"), shape);
    return std::vector<int64_t>(t->data<int64_t>(), t->data<int64_t>() + t->numElements());
  }
  return m.attrs.intList(a);
}

int64_t Interpreter::intAttr(OpId op, std::string_view name, int64_t dflt) const {
  AttrId a = m.attr(op, name);
  if (a == kNoAttr) return dflt;
  return m.attrs.get(a).intValue;
}

std::vector<std::pair<int64_t, int64_t>> Interpreter::pairs(OpId op, std::string_view name) const {
  std::vector<int64_t> flat = ints(op, name);
  std::vector<std::pair<int64_t, int64_t>> out;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) out.push_back({flat[i], flat[i + 1]});
  return out;
}

std::string_view Interpreter::simpleBinaryRegion(RegionId r) const {
  const Region &reg = m.regions[r];
  if (reg.blocks.size() != 1) return {};
  const Block &b = m.blocks[reg.blocks[0]];
  if (b.ops.size() != 2 || b.args.size() != 2) return {};
  OpId op = b.ops[0], ret = b.ops[1];
  if (m.numOperands(op) != 2 || m.numResults(op) != 1 || m.numOperands(ret) != 1) return {};
  if (m.operand(ret, 0) != m.result(op, 0)) return {};
  if (m.operand(op, 0) != b.args[0] || m.operand(op, 1) != b.args[1]) return {};
  return m.opName(op);
}

std::vector<TensorPtr> Interpreter::runRegion(RegionId r, const std::vector<TensorPtr> &args) {
  const Region &reg = m.regions[r];
  if (reg.blocks.empty()) throw std::runtime_error("empty region");
  if (reg.blocks.size() != 1) throw ExecError(reg.parent, "regions with several blocks are not supported");
  const Block &b = m.blocks[reg.blocks[0]];
  if (args.size() != b.args.size()) throw ExecError(reg.parent, "region called with the wrong number of arguments");
  verifyRegionArguments(*this, r, args);
  for (size_t i = 0; i < args.size(); ++i) values_[b.args[i]] = args[i];
  std::vector<TensorPtr> results;
  for (OpId op : b.ops) {
    std::string_view name = m.opName(op);
    if (name == "stablehlo.return" || name == "func.return" || name == "return" || name == "chlo.return" ||
        name == "sdy.return") {
      for (ValueId v : m.operands(op)) results.push_back(values_[v]);
      return results;
    }
    runOp(op);
  }
  return results;
}

std::vector<TensorPtr> Interpreter::callFunction(OpId func, const std::vector<TensorPtr> &args) {
  if (m.numRegions(func) == 0 || m.regions[m.region(func, 0)].blocks.empty())
    throw ExecError(func, "function has no body");
  return runRegion(m.region(func, 0), args);
}

void Interpreter::runOp(OpId op) {
  NameId n = m.ops[op].name;
  if (n >= kernelByName_.size()) {
    kernelByName_.resize(n + 1, nullptr);
    looked_.resize(n + 1, 0);
  }
  if (!looked_[n]) {
    kernelByName_[n] = findKernel(m.opName(op));
    looked_[n] = 1;
  }
  Kernel k = kernelByName_[n];
  if (!k) fail(op, "unsupported op '" + std::string(m.opName(op)) + "'");
  try {
    if (!verified_[op]) verified_[op] = verifyOp(*this, op);
    checkQuantizedOp(*this, op);
    k(*this, op);
    verifyResults(*this, op, values_);
  } catch (const ExecError &) {
    throw;
  } catch (const std::exception &e) {
    fail(op, std::string(m.opName(op)) + ": " + e.what());
  }
}

}  // namespace autopart::exec
