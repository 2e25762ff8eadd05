#include "ir/Types.h"

namespace autopart {

TypeTable::TypeTable() = default;

TypeId TypeTable::intern(TypeStorage &&storage) {
  auto it = byText_.find(storage.text);
  if (it != byText_.end()) return it->second;
  TypeId id = TypeId(types_.size());
  types_.push_back(std::move(storage));
  byText_.emplace(types_.back().text, id);
  return id;
}

TypeId TypeTable::lookup(std::string_view text) const {
  auto it = byText_.find(text);
  return it == byText_.end() ? kNoType : it->second;
}

static uint32_t parseBits(std::string_view digits) {
  uint32_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + uint32_t(c - '0');
    if (v > (1u << 24)) return 0;  // MLIR's own limit on integer widths
  }
  return v;
}

TypeId TypeTable::scalar(std::string_view spelling) {
  if (TypeId id = lookup(spelling); id != kNoType) return id;
  TypeStorage s;
  s.kind = TypeKind::Scalar;
  s.text = std::string(spelling);
  if (spelling == "index") {
    s.scalarClass = ScalarClass::Index;
    s.bits = 64;
  } else if (spelling.starts_with("complex<")) {
    s.scalarClass = ScalarClass::Complex;
    TypeId inner = scalar(spelling.substr(8, spelling.size() - 9));
    s.bits = 2 * types_[inner].bits;
  } else if (spelling.starts_with("ui")) {
    s.scalarClass = ScalarClass::UInt;
    s.bits = parseBits(spelling.substr(2));
  } else if (spelling.starts_with("si")) {
    s.scalarClass = ScalarClass::Int;
    s.bits = parseBits(spelling.substr(2));
  } else if (spelling.starts_with("i")) {
    s.scalarClass = ScalarClass::SignlessInt;
    s.bits = parseBits(spelling.substr(1));
  } else if (spelling == "bf16" || spelling == "f16") {
    s.bits = 16;
  } else if (spelling == "tf32") {
    s.bits = 19;
  } else if (spelling.starts_with("f8") || spelling.starts_with("f6") ||
             spelling.starts_with("f4")) {
    s.bits = uint32_t(spelling[1] - '0');
  } else if (spelling.starts_with("f")) {
    s.bits = parseBits(spelling.substr(1));
  } else {
    s.kind = TypeKind::Opaque;  // e.g. !quant.uniform<...>: size unknown.
    s.bits = 0;
  }
  return intern(std::move(s));
}

TypeId TypeTable::tensor(const std::vector<int64_t> &shape, TypeId element,
                         std::string_view encoding) {
  TypeStorage s;
  s.kind = TypeKind::Tensor;
  s.element = element;
  s.bits = types_[element].bits;
  s.shape = shape;
  s.text.reserve(16 + shape.size() * 4);
  s.text = "tensor<";
  for (int64_t d : shape) {
    if (d == kDynamic)
      s.text += '?';
    else
      s.text += std::to_string(d);
    s.text += 'x';
  }
  s.text += types_[element].text;
  if (!encoding.empty()) {
    s.text += ", ";
    s.text += encoding;
  }
  s.text += '>';
  return intern(std::move(s));
}

TypeId TypeTable::unrankedTensor(TypeId element) {
  TypeStorage s;
  s.kind = TypeKind::UnrankedTensor;
  s.element = element;
  s.bits = types_[element].bits;
  s.text = "tensor<*x" + types_[element].text + ">";
  return intern(std::move(s));
}

TypeId TypeTable::token() {
  TypeStorage s;
  s.kind = TypeKind::Token;
  s.text = "!stablehlo.token";
  return intern(std::move(s));
}

TypeId TypeTable::none() {
  TypeStorage s;
  s.kind = TypeKind::None;
  s.text = "none";
  return intern(std::move(s));
}

TypeId TypeTable::tuple(const std::vector<TypeId> &members) {
  TypeStorage s;
  s.kind = TypeKind::Tuple;
  s.members = members;
  s.text = "tuple<";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i) s.text += ", ";
    s.text += types_[members[i]].text;
  }
  s.text += '>';
  return intern(std::move(s));
}

TypeId TypeTable::function(const std::vector<TypeId> &inputs,
                           const std::vector<TypeId> &results) {
  TypeStorage s;
  s.kind = TypeKind::Function;
  s.members = inputs;
  s.results = results;
  s.text = "(";
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i) s.text += ", ";
    s.text += types_[inputs[i]].text;
  }
  s.text += ") -> ";
  bool paren = results.size() != 1 ||
               types_[results[0]].kind == TypeKind::Function;
  if (paren) s.text += '(';
  for (size_t i = 0; i < results.size(); ++i) {
    if (i) s.text += ", ";
    s.text += types_[results[i]].text;
  }
  if (paren) s.text += ')';
  return intern(std::move(s));
}

TypeId TypeTable::opaque(std::string_view text) {
  TypeStorage s;
  s.kind = TypeKind::Opaque;
  s.text = std::string(text);
  return intern(std::move(s));
}

bool TypeTable::hasDynamicDim(TypeId id) const {
  const TypeStorage &t = types_[id];
  if (t.kind == TypeKind::UnrankedTensor) return true;
  for (int64_t d : t.shape)
    if (d == kDynamic) return true;
  return false;
}

int64_t TypeTable::numElements(TypeId id) const {
  const TypeStorage &t = types_[id];
  if (t.kind == TypeKind::Scalar) return 1;
  if (t.kind != TypeKind::Tensor) return 0;
  int64_t n = 1;
  for (int64_t d : t.shape) {
    if (d == kDynamic) return 0;
    // Absurd shapes saturate instead of overflowing.
    if (__builtin_mul_overflow(n, d, &n)) return INT64_MAX / 64;
  }
  return n;
}

int64_t TypeTable::byteSize(TypeId id) const {
  const TypeStorage &t = types_[id];
  if (t.kind == TypeKind::Tuple) {
    int64_t total = 0;
    for (TypeId m : t.members) total += byteSize(m);
    return total;
  }
  int64_t bits;
  if (__builtin_mul_overflow(numElements(id), int64_t(t.bits), &bits)) return INT64_MAX / 8;
  return (bits + 7) / 8;
}

uint32_t TypeTable::elementBits(TypeId id) const { return types_[id].bits; }

bool TypeTable::isFloatElement(TypeId id) const {
  const TypeStorage &t = types_[id];
  TypeId e = t.kind == TypeKind::Scalar ? id : t.element;
  if (e == kNoType) return false;
  const TypeStorage &es = types_[e];
  return es.kind == TypeKind::Scalar && es.scalarClass == ScalarClass::Float;
}

bool TypeTable::isIntegerElement(TypeId id) const {
  const TypeStorage &t = types_[id];
  TypeId e = t.kind == TypeKind::Scalar ? id : t.element;
  if (e == kNoType) return false;
  const TypeStorage &es = types_[e];
  return es.kind == TypeKind::Scalar &&
         (es.scalarClass == ScalarClass::Int ||
          es.scalarClass == ScalarClass::UInt ||
          es.scalarClass == ScalarClass::SignlessInt);
}

}  // namespace autopart
