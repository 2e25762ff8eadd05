#include "ir/Attributes.h"

#include "support/FloatFormat.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace autopart {

NameId NamePool::get(std::string_view s) {
  auto it = ids_.find(s);
  if (it != ids_.end()) return it->second;
  NameId id = NameId(names_.size());
  names_.emplace_back(s);
  ids_.emplace(names_.back(), id);
  return id;
}

NameId NamePool::find(std::string_view s) const {
  auto it = ids_.find(s);
  return it == ids_.end() ? kNoName : it->second;
}

AttrId AttrTable::intern(AttrStorage &&s) {
  auto it = byText_.find(s.text);
  if (it != byText_.end()) return it->second;
  AttrId id = AttrId(attrs_.size());
  attrs_.push_back(std::move(s));
  byText_.emplace(attrs_.back().text, id);
  return id;
}

void AttrTable::print(AttrId id, std::string &out) const {
  const AttrStorage &a = attrs_[id];
  if (a.kind != AttrKind::DenseElements) {
    out += a.text;
    return;
  }
  out += a.prefix;
  out += '<';
  out += a.body;
  out += "> : ";
  out += types_.str(a.type);
}

std::string AttrTable::str(AttrId id) const {
  std::string s;
  print(id, s);
  return s;
}

AttrId AttrTable::unit() {
  AttrStorage s;
  s.kind = AttrKind::Unit;
  s.text = "unit";
  return intern(std::move(s));
}

AttrId AttrTable::boolean(bool v) {
  AttrStorage s;
  s.kind = AttrKind::Bool;
  s.intValue = v;
  s.text = v ? "true" : "false";
  return intern(std::move(s));
}

AttrId AttrTable::integer(int64_t v, TypeId type) {
  AttrStorage s;
  s.kind = AttrKind::Integer;
  s.intValue = v;
  s.type = type;
  s.text = std::to_string(v);
  if (type != kNoType) {
    s.text += " : ";
    s.text += types_.str(type);
  }
  return intern(std::move(s));
}

AttrId AttrTable::floating(double v, std::string_view spelling, TypeId type) {
  AttrStorage s;
  s.kind = AttrKind::Float;
  s.floatValue = v;
  s.type = type;
  s.text = std::string(spelling);
  if (type != kNoType) {
    s.text += " : ";
    s.text += types_.str(type);
  }
  return intern(std::move(s));
}

AttrId AttrTable::string(std::string_view escapedContents) {
  AttrStorage s;
  s.kind = AttrKind::String;
  s.text.reserve(escapedContents.size() + 2);
  s.text += '"';
  s.text += escapedContents;
  s.text += '"';
  return intern(std::move(s));
}

AttrId AttrTable::typeAttr(TypeId type) {
  AttrStorage s;
  s.kind = AttrKind::Type;
  s.type = type;
  s.text = std::string(types_.str(type));
  return intern(std::move(s));
}

AttrId AttrTable::symbolRef(std::string_view spelling) {
  AttrStorage s;
  s.kind = AttrKind::SymbolRef;
  s.text = std::string(spelling);
  return intern(std::move(s));
}

AttrId AttrTable::array(std::vector<AttrId> elems) {
  AttrStorage s;
  s.kind = AttrKind::Array;
  s.text = "[";
  for (size_t i = 0; i < elems.size(); ++i) {
    if (i) s.text += ", ";
    print(elems[i], s.text);
  }
  s.text += ']';
  s.elems = std::move(elems);
  return intern(std::move(s));
}

AttrId AttrTable::denseArray(TypeId element, std::vector<int64_t> values) {
  AttrStorage s;
  s.kind = AttrKind::DenseArray;
  s.type = element;
  bool isBool = types_.str(element) == "i1";
  s.text = "array<";
  s.text += types_.str(element);
  for (size_t i = 0; i < values.size(); ++i) {
    s.text += i ? ", " : ": ";
    if (isBool)
      s.text += values[i] ? "true" : "false";
    else
      s.text += std::to_string(values[i]);
  }
  s.text += '>';
  s.ints = std::move(values);
  return intern(std::move(s));
}

AttrId AttrTable::denseArrayFloat(TypeId element, std::vector<double> values,
                                  std::vector<std::string> spellings) {
  AttrStorage s;
  s.kind = AttrKind::DenseArray;
  s.type = element;
  s.text = "array<";
  s.text += types_.str(element);
  for (size_t i = 0; i < spellings.size(); ++i) {
    s.text += i ? ", " : ": ";
    s.text += spellings[i];
  }
  s.text += '>';
  s.floats = std::move(values);
  return intern(std::move(s));
}

AttrId AttrTable::denseElements(std::string_view prefix, std::string_view body,
                                TypeId type) {
  // f32 / f64 literals are re-spelled as MLIR prints them (`1.0` as
  // `1.000000e+00`); a hexadecimal string stays a view.
  if (prefix == "dense" && type != kNoType) {
    std::string_view element = types_.str(types_.elementType(type));
    if (element == "f32" || element == "f64") {
      if (std::optional<std::string> canonical = canonicalFloatElements(body, element == "f32")) {
        ownedText_.push_back(std::move(*canonical));
        body = ownedText_.back();
      }
    }
  }
  // Not interned: the body may be megabytes, and only its view is kept.
  AttrStorage s;
  s.kind = AttrKind::DenseElements;
  s.prefix = prefix;
  s.body = body;
  s.type = type;
  AttrId id = AttrId(attrs_.size());
  attrs_.push_back(std::move(s));
  return id;
}

AttrId AttrTable::denseElementsOwned(std::string_view prefix, std::string body, TypeId type) {
  ownedText_.push_back(std::move(body));
  return denseElements(prefix, ownedText_.back(), type);
}

static void appendEntries(std::string &text, const AttrTable &table, const NamePool &names,
                          const std::vector<std::pair<NameId, AttrId>> &entries) {
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) text += ", ";
    text += names.str(entries[i].first);
    if (table.kind(entries[i].second) == AttrKind::Unit) continue;
    text += " = ";
    table.print(entries[i].second, text);
  }
}

AttrId AttrTable::dict(std::vector<std::pair<NameId, AttrId>> entries) {
  std::stable_sort(entries.begin(), entries.end(), [&](auto &a, auto &b) {
    return names_.str(a.first) < names_.str(b.first);
  });
  AttrStorage s;
  s.kind = AttrKind::Dict;
  s.text = "{";
  appendEntries(s.text, *this, names_, entries);
  s.text += '}';
  for (auto &[k, v] : entries) {
    s.keys.push_back(k);
    s.elems.push_back(v);
  }
  return intern(std::move(s));
}

AttrId AttrTable::dialectStruct(std::string_view dialectName,
                                std::vector<std::pair<NameId, AttrId>> entries) {
  AttrStorage s;
  s.kind = AttrKind::DialectStruct;
  s.dialectName = std::string(dialectName);
  s.text = "#" + s.dialectName + "<";
  appendEntries(s.text, *this, names_, entries);
  s.text += '>';
  for (auto &[k, v] : entries) {
    s.keys.push_back(k);
    s.elems.push_back(v);
  }
  return intern(std::move(s));
}

AttrId AttrTable::sharding(TensorSharding sh) {
  AttrStorage s;
  s.kind = AttrKind::Sharding;
  s.text = sh.str();
  s.sharding = std::make_unique<TensorSharding>(std::move(sh));
  return intern(std::move(s));
}

AttrId AttrTable::shardingPerValue(std::vector<TensorSharding> shs) {
  AttrStorage s;
  s.kind = AttrKind::ShardingPerValue;
  s.text = "#sdy.sharding_per_value<[";
  for (size_t i = 0; i < shs.size(); ++i) {
    if (i) s.text += ", ";
    s.text += shs[i].strBody();
  }
  s.text += "]>";
  s.shardings = std::move(shs);
  return intern(std::move(s));
}

AttrId AttrTable::shardingRule(OpShardingRule rule) {
  AttrStorage s;
  s.kind = AttrKind::ShardingRule;
  s.text = rule.str();
  s.rule = std::make_unique<OpShardingRule>(std::move(rule));
  return intern(std::move(s));
}

AttrId AttrTable::mesh(Mesh m) {
  AttrStorage s;
  s.kind = AttrKind::Mesh;
  s.text = "#sdy.mesh" + m.str();
  s.mesh = std::make_unique<Mesh>(std::move(m));
  return intern(std::move(s));
}

AttrId AttrTable::opaque(std::string_view text) {
  AttrStorage s;
  s.kind = AttrKind::Opaque;
  s.text = std::string(text);
  return intern(std::move(s));
}

namespace {

// Little-endian integers of `width` bytes from hex digits (`0x` stripped).
std::vector<int64_t> hexInts(std::string_view hex, size_t width) {
  std::vector<int64_t> out;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i + 2 * width <= hex.size(); i += 2 * width) {
    uint64_t v = 0;
    for (size_t b = width; b-- > 0;) {
      int hi = digit(hex[i + 2 * b]), lo = digit(hex[i + 2 * b + 1]);
      if (hi < 0 || lo < 0) return {};
      v = (v << 8) | uint64_t(hi * 16 + lo);
    }
    if (width < 8 && (v >> (8 * width - 1)) & 1) v |= ~uint64_t(0) << (8 * width);  // sign-extend
    out.push_back(int64_t(v));
  }
  return out;
}

}  // namespace

std::vector<int64_t> AttrTable::denseInts(AttrId id) const {
  if (id == kNoAttr) return {};
  const AttrStorage &s = attrs_[id];
  if (s.kind != AttrKind::DenseElements) return intList(id);
  if (s.prefix != "dense") return {};
  std::string_view body = s.body;
  std::vector<int64_t> v;
  if (body.starts_with("\"0x")) {
    uint32_t bits = s.type == kNoType ? 0 : types_.elementBits(s.type);
    bool integer = s.type != kNoType && types_.isIntegerElement(s.type);
    if (!integer || (bits != 8 && bits != 16 && bits != 32 && bits != 64)) return {};
    v = hexInts(body.substr(3, body.size() >= 4 ? body.size() - 4 : 0), bits / 8);
  } else {
    const char *c = body.data(), *end = c + body.size();
    while (c < end) {
      std::string_view rest(c, size_t(end - c));
      if (*c == '-' || (*c >= '0' && *c <= '9')) {
        char *next = nullptr;
        v.push_back(std::strtoll(c, &next, 10));
        c = next;
      } else if (rest.starts_with("true")) {
        v.push_back(1);  // window_reversal = dense<true> : tensor<2xi1>
        c += 4;
      } else if (rest.starts_with("false")) {
        v.push_back(0);
        c += 5;
      } else {
        ++c;
      }
    }
  }
  if (v.size() == 1 && s.type != kNoType && types_.numElements(s.type) > 1)
    v.assign(size_t(types_.numElements(s.type)), v[0]);
  return v;
}

std::vector<int64_t> AttrTable::intList(AttrId id) const {
  const AttrStorage &a = attrs_[id];
  if (a.kind == AttrKind::DenseArray) return a.ints;
  std::vector<int64_t> out;
  if (a.kind == AttrKind::Array)
    for (AttrId e : a.elems) out.push_back(attrs_[e].intValue);
  else if (a.kind == AttrKind::Integer)
    out.push_back(a.intValue);
  return out;
}

std::string_view AttrTable::stringValue(AttrId id) const {
  const AttrStorage &a = attrs_[id];
  if (a.kind != AttrKind::String) return {};
  return std::string_view(a.text).substr(1, a.text.size() - 2);
}

bool AttrTable::isSplat(AttrId id) const {
  if (id == kNoAttr || get(id).kind != AttrKind::DenseElements || get(id).prefix != "dense") return false;
  std::string_view body = get(id).body;
  return !body.empty() && body.front() != '[' && body.front() != '"';
}

AttrId AttrTable::field(AttrId id, std::string_view key) const {
  if (id == kNoAttr) return kNoAttr;
  const AttrStorage &a = attrs_[id];
  NameId k = names_.find(key);
  if (k == kNoName) return kNoAttr;
  for (size_t i = 0; i < a.keys.size(); ++i)
    if (a.keys[i] == k) return a.elems[i];
  return kNoAttr;
}

std::string escapeString(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (unsigned char c : raw) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "\\%02X", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

static int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string unescapeString(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char n = s[i + 1];
    if (n == 'n') {
      out += '\n';
      ++i;
    } else if (n == 't') {
      out += '\t';
      ++i;
    } else if (n == '"' || n == '\\') {
      out += n;
      ++i;
    } else if (i + 2 < s.size() && hexValue(n) >= 0 && hexValue(s[i + 2]) >= 0) {
      out += char(hexValue(n) * 16 + hexValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace autopart
