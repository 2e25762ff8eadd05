#include "exec/OpVerifier.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace autopart::exec {
namespace {

struct Entry {
  OpCheckFn fn;
  bool readsValues;
};

std::unordered_map<std::string_view, Entry> &checks() {
  static std::unordered_map<std::string_view, Entry> r;
  return r;
}

std::string tensorTypeString(const Tensor &t) {
  if (t.isToken) return "!stablehlo.token";
  if (t.isTuple) return "a tuple";
  return t.typeString();
}

}  // namespace

OpCheckRegistration::OpCheckRegistration(std::initializer_list<const char *> names, OpCheckFn fn, bool readsValues) {
  for (const char *n : names) checks()[n] = {fn, readsValues};
}

std::string dimsString(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

int64_t numWindows(int64_t in, int64_t baseDil, int64_t padLo, int64_t padHi, int64_t window, int64_t windowDil,
                   int64_t stride) {
  // In 128 bits: sizes, dilations and paddings are arbitrary int64
  // attributes; a count beyond int64 is -1, which matches no dimension.
  __int128 dilatedIn = in == 0 ? 0 : __int128(in - 1) * baseDil + 1;
  __int128 padded = dilatedIn + padLo + padHi;
  __int128 dilatedWindow = window == 0 ? 0 : __int128(window - 1) * windowDil + 1;
  if (padded <= 0 || dilatedWindow > padded) return 0;
  __int128 n = (padded - dilatedWindow) / stride + 1;
  return n > INT64_MAX ? -1 : int64_t(n);
}

bool holdsType(const TypeTable &types, const Tensor &t, TypeId ty) {
  TypeKind k = types.get(ty).kind;
  if (k == TypeKind::Token) return t.isToken;
  if (k != TypeKind::Tensor || types.hasDynamicDim(ty)) return true;
  if (t.isToken || t.isTuple) return false;
  return t.shape == types.shape(ty) && t.dtype.name == types.str(types.elementType(ty));
}

void OpCheck::fail(const std::string &msg) const { I.fail(op, std::string(name) + ": " + msg); }

void OpCheck::counts(uint32_t operands, uint32_t results, uint32_t regions) const {
  if (operands != kAny && numOperands() != operands)
    fail("takes " + std::to_string(operands) + " operands, not " + std::to_string(numOperands()));
  if (results != kAny && numResults() != results)
    fail("has " + std::to_string(results) + " results, not " + std::to_string(numResults()));
  if (regions != kAny && m.numRegions(op) != regions)
    fail("has " + std::to_string(regions) + " regions, not " + std::to_string(m.numRegions(op)));
  for (uint32_t r = 0; regions != kAny && r < regions; ++r)
    if (m.regions[m.region(op, r)].blocks.size() != 1) fail("region #" + std::to_string(r) + " must have one block");
}

void OpCheck::atLeastOperands(uint32_t n) const {
  if (numOperands() < n) fail("takes at least " + std::to_string(n) + " operands, not " + std::to_string(numOperands()));
}

std::vector<int64_t> OpCheck::field(std::string_view attr, std::string_view key) const {
  AttrId a = m.attr(op, attr);
  if (a == kNoAttr) return {};
  AttrId f = m.attrs.field(a, key);
  return f == kNoAttr ? std::vector<int64_t>{} : m.attrs.intList(f);
}

bool OpCheck::hasField(std::string_view attr, std::string_view key) const {
  AttrId a = m.attr(op, attr);
  return a != kNoAttr && m.attrs.field(a, key) != kNoAttr;
}

int64_t OpCheck::fieldInt(std::string_view attr, std::string_view key, int64_t dflt) const {
  AttrId a = m.attr(op, attr);
  if (a == kNoAttr) return dflt;
  AttrId f = m.attrs.field(a, key);
  return f == kNoAttr ? dflt : m.attrs.get(f).intValue;
}

const std::vector<int64_t> *OpCheck::resultShape(uint32_t i) const {
  TypeId t = m.type(m.result(op, i));
  if (!m.types.isTensor(t) || m.types.hasDynamicDim(t)) return nullptr;
  return &m.types.shape(t);
}

void OpCheck::resultShapeIs(uint32_t i, const std::vector<int64_t> &want) const {
  const std::vector<int64_t> *s = resultShape(i);
  if (s && *s != want)
    fail("result #" + std::to_string(i) + " is " + typeStr(m.type(m.result(op, i))) + ", its shape must be " +
         dimsString(want));
}

void OpCheck::resultElementIs(uint32_t i, const Tensor &t) const {
  TypeId rt = m.type(m.result(op, i));
  if (!m.types.isTensor(rt) || t.isToken || t.isTuple) return;
  // A quantized result may carry other scales than its operands (the spec's
  // quantized add, clamp, select): DType's == compares representations.
  TypeId element = m.types.elementType(rt);
  if (m.types.str(element) != t.dtype.name && !(dtypeOf(m.types, element) == t.dtype))
    fail("result #" + std::to_string(i) + " is " + typeStr(rt) + ", its element type must be " + t.dtype.name);
}

void OpCheck::isTensor(const Tensor &t, const std::string &what, int64_t rank) const {
  if (t.isToken || t.isTuple) fail(what + " is " + tensorTypeString(t) + ", not a tensor");
  if (rank >= 0 && t.rank() != rank)
    fail(what + " is " + t.typeString() + ", it must have rank " + std::to_string(rank));
}

void OpCheck::sameElement(const Tensor &a, const Tensor &b, const std::string &what) const {
  if (!(a.dtype == b.dtype)) fail(what + ": " + tensorTypeString(a) + " and " + tensorTypeString(b));
}

void OpCheck::sameShape(const Tensor &a, const Tensor &b, const std::string &what) const {
  if (a.shape != b.shape) fail(what + ": " + tensorTypeString(a) + " and " + tensorTypeString(b));
}

void OpCheck::dimsInRange(const std::vector<int64_t> &dims, int64_t rank, const std::string &what,
                          bool unique) const {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= rank)
      fail(what + " " + dimsString(dims) + ": " + std::to_string(dims[i]) + " is not in [0, " + std::to_string(rank) +
           ")");
    if (unique && std::find(dims.begin(), dims.begin() + long(i), dims[i]) != dims.begin() + long(i))
      fail(what + " " + dimsString(dims) + ": " + std::to_string(dims[i]) + " appears twice");
  }
}

void OpCheck::sizeIs(const std::vector<int64_t> &v, size_t n, const std::string &what) const {
  if (v.size() != n) fail(what + " " + dimsString(v) + " must have " + std::to_string(n) + " entries");
}

void OpCheck::allPositive(const std::vector<int64_t> &v, const std::string &what) const {
  for (int64_t x : v)
    if (x <= 0) fail(what + " " + dimsString(v) + " must be positive");
}

std::vector<TypeId> OpCheck::regionReturnTypes(uint32_t r) const {
  const Block &b = m.blocks[m.regions[m.region(op, r)].blocks.at(0)];
  std::vector<TypeId> out;
  if (b.ops.empty()) return out;
  for (ValueId v : m.operands(b.ops.back())) out.push_back(m.type(v));
  return out;
}

void OpCheck::scalarRegion(uint32_t r, const std::vector<std::string_view> &argElements,
                           const std::vector<std::string_view> &resultElements) const {
  if (r >= m.numRegions(op) || m.regions[m.region(op, r)].blocks.size() != 1)
    fail("region #" + std::to_string(r) + " is missing or has several blocks");
  const Block &b = m.blocks[m.regions[m.region(op, r)].blocks[0]];
  auto isScalar = [&](TypeId t, std::string_view elem) {
    return m.types.isTensor(t) && m.types.rank(t) == 0 && (elem.empty() || m.types.str(m.types.elementType(t)) == elem);
  };
  auto expected = [&](const std::vector<std::string_view> &elems) {
    std::string s = "(";
    for (size_t i = 0; i < elems.size(); ++i)
      s += (i ? ", " : "") + (elems[i].empty() ? std::string("tensor<...>") : "tensor<" + std::string(elems[i]) + ">");
    return s + ")";
  };
  if (b.args.size() != argElements.size())
    fail("region #" + std::to_string(r) + " takes " + std::to_string(b.args.size()) + " arguments, it must take " +
         expected(argElements));
  for (size_t i = 0; i < b.args.size(); ++i)
    if (!isScalar(m.type(b.args[i]), argElements[i]))
      fail("region #" + std::to_string(r) + " argument #" + std::to_string(i) + " is " + typeStr(m.type(b.args[i])) +
           ", the arguments must be " + expected(argElements));
  std::vector<TypeId> rets = regionReturnTypes(r);
  bool ok = rets.size() == resultElements.size();
  for (size_t i = 0; ok && i < rets.size(); ++i) ok = isScalar(rets[i], resultElements[i]);
  if (!ok) fail("region #" + std::to_string(r) + " must return " + expected(resultElements));
}

void OpCheck::regionTypes(uint32_t r, const std::vector<const Tensor *> &args,
                          const std::vector<TypeId> &results) const {
  if (r >= m.numRegions(op) || m.regions[m.region(op, r)].blocks.size() != 1)
    fail("region #" + std::to_string(r) + " is missing or has several blocks");
  const Block &b = m.blocks[m.regions[m.region(op, r)].blocks[0]];
  if (b.args.size() != args.size())
    fail("region #" + std::to_string(r) + " takes " + std::to_string(b.args.size()) + " arguments, not " +
         std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i)
    if (!holdsType(m.types, *args[i], m.type(b.args[i])))
      fail("region #" + std::to_string(r) + " argument #" + std::to_string(i) + " is " + typeStr(m.type(b.args[i])) +
           ", the value passed is " + tensorTypeString(*args[i]));
  std::vector<TypeId> rets = regionReturnTypes(r);
  if (rets.size() != results.size())
    fail("region #" + std::to_string(r) + " returns " + std::to_string(rets.size()) + " values, not " +
         std::to_string(results.size()));
  for (size_t i = 0; i < rets.size(); ++i) {
    TypeId a = rets[i], w = results[i];
    if (a == w) continue;
    bool tensors = m.types.isTensor(a) && m.types.isTensor(w);
    bool dynamic = tensors && (m.types.hasDynamicDim(a) || m.types.hasDynamicDim(w));
    if (tensors && m.types.elementType(a) == m.types.elementType(w) &&
        (dynamic ? m.types.rank(a) == m.types.rank(w) : m.types.shape(a) == m.types.shape(w)))
      continue;
    fail("region #" + std::to_string(r) + " returns " + typeStr(a) + " as value #" + std::to_string(i) + ", expected " +
         typeStr(w));
  }
}

bool verifyOp(const Interpreter &I, OpId op) {
  auto it = checks().find(I.m.opName(op));
  if (it != checks().end()) it->second.fn(OpCheck(I, op));
  if (it != checks().end() && it->second.readsValues) return false;
  for (ValueId v : I.m.operands(op))
    if (!I.m.types.isTensor(I.m.type(v)) || I.m.types.hasDynamicDim(I.m.type(v))) return false;
  return true;
}

void verifyResults(const Interpreter &I, OpId op, const std::vector<TensorPtr> &values) {
  for (uint32_t i = 0; i < I.m.numResults(op); ++i) {
    ValueId v = I.m.result(op, i);
    if (values[v] && !holdsType(I.m.types, *values[v], I.m.type(v)))
      I.fail(op, std::string(I.m.opName(op)) + ": result #" + std::to_string(i) + " of type " +
                     std::string(I.m.types.str(I.m.type(v))) + " holds a " + tensorTypeString(*values[v]));
  }
}

void verifyRegionArguments(const Interpreter &I, RegionId r, const std::vector<TensorPtr> &args) {
  const Region &reg = I.m.regions[r];
  const Block &b = I.m.blocks[reg.blocks[0]];
  for (size_t i = 0; i < args.size() && i < b.args.size(); ++i)
    if (args[i] && !holdsType(I.m.types, *args[i], I.m.type(b.args[i])))
      I.fail(reg.parent, std::string(I.m.opName(reg.parent)) + ": region argument #" + std::to_string(i) + " is " +
                             std::string(I.m.types.str(I.m.type(b.args[i]))) + ", the value passed is " +
                             tensorTypeString(*args[i]));
}

}  // namespace autopart::exec
