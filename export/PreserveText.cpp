#include "export/PreserveText.h"

#include <algorithm>
#include <iostream>
#include <memory>

#include "asm/Parser.h"
#include "asm/Printer.h"
#include "support/AtomicFile.h"

namespace autopart {

namespace {

// The attributes a plan writes; any other difference means re-printing.
constexpr std::string_view kKeys[] = {"mhlo.sharding", "sdy.sharding"};

bool isPlanKey(std::string_view k) { return std::find(std::begin(kKeys), std::end(kKeys), k) != std::end(kKeys); }

struct TextEdit {
  uint32_t begin, end;  // replaced range of the source (begin == end: insert)
  std::string text;
};

// A planned value for one key of one dictionary; nullopt: remove the key.
struct KeyChange {
  std::string_view key;
  std::optional<std::string> value;
};

bool sameAttr(const Module &a, AttrId x, const Module &b, AttrId y) {
  if (x == kNoAttr || y == kNoAttr) return x == y;
  const AttrStorage &s = a.attrs.get(x), &t = b.attrs.get(y);
  if (s.kind != t.kind) return false;
  if (s.kind == AttrKind::DenseElements)
    return s.prefix == t.prefix && s.body == t.body && a.types.str(s.type) == b.types.str(t.type);
  return s.text == t.text;
}

std::optional<std::string> attrText(const Module &m, AttrId a) {
  if (a == kNoAttr) return std::nullopt;
  return m.attrs.str(a);
}

// Entries of a dictionary attribute other than the plan's keys agree.
bool sameDictBesidesPlan(const Module &a, AttrId x, const Module &b, AttrId y) {
  auto entries = [](const Module &m, AttrId d) {
    std::vector<std::pair<std::string_view, AttrId>> out;
    if (d == kNoAttr) return out;
    const AttrStorage &s = m.attrs.get(d);
    for (size_t i = 0; i < s.keys.size() && i < s.elems.size(); ++i) {
      std::string_view k = m.names.str(s.keys[i]);
      if (!isPlanKey(k)) out.emplace_back(k, s.elems[i]);
    }
    return out;
  };
  auto ex = entries(a, x), ey = entries(b, y);
  if (ex.size() != ey.size()) return false;
  for (size_t i = 0; i < ex.size(); ++i)
    if (ex[i].first != ey[i].first || !sameAttr(a, ex[i].second, b, ey[i].second)) return false;
  return true;
}

AttrId dictEntry(const Module &m, AttrId d, std::string_view key) {
  return d == kNoAttr ? kNoAttr : m.attrs.field(d, key);
}

// Element `i` of an `arg_attrs` / `res_attrs` array (kNoAttr when absent).
AttrId listDict(const Module &m, OpId op, std::string_view list, size_t i) {
  AttrId a = m.attr(op, list);
  if (a == kNoAttr) return kNoAttr;
  const AttrStorage &s = m.attrs.get(a);
  return i < s.elems.size() ? s.elems[i] : kNoAttr;
}

// Why two ops differ in more than the plan's attributes (empty: they do not).
std::string structuralDifference(const Module &o, const Module &p, OpId op) {
  if (o.opName(op) != p.opName(op)) return "op " + std::to_string(op) + " was replaced";
  if (o.numOperands(op) != p.numOperands(op) || o.numResults(op) != p.numResults(op) ||
      o.numRegions(op) != p.numRegions(op))
    return p.where(op) + ": " + std::string(p.opName(op)) + " was rewired";
  for (uint32_t i = 0; i < o.numOperands(op); ++i)
    if (o.operand(op, i) != p.operand(op, i)) return p.where(op) + ": operands changed";
  for (uint32_t i = 0; i < o.numResults(op); ++i)
    if (o.types.str(o.type(o.result(op, i))) != p.types.str(p.type(p.result(op, i))))
      return p.where(op) + ": result types changed";
  // A function's argument and result dictionaries are compared entry by
  // entry by the signature edit (a plan may add the lists).
  // A mesh's axes are replaced as a whole by the mesh edit.
  bool isFunc = o.isa(op, "func.func"), isMesh = o.isa(op, "sdy.mesh");
  auto others = [isFunc, isMesh](const Module &m, OpId op) {
    std::vector<std::pair<std::string_view, AttrId>> out;
    for (const NamedAttr &a : m.attributes(op)) {
      std::string_view k = m.names.str(a.name);
      if (isPlanKey(k) || (isFunc && (k == "arg_attrs" || k == "res_attrs")) || (isMesh && k == "mesh")) continue;
      out.emplace_back(k, a.value);
    }
    return out;
  };
  auto ao = others(o, op), ap = others(p, op);
  if (ao.size() != ap.size()) return p.where(op) + ": attributes changed";
  for (size_t i = 0; i < ao.size(); ++i) {
    if (ao[i].first != ap[i].first) return p.where(op) + ": attributes changed";
    if (!sameAttr(o, ao[i].second, p, ap[i].second))
      return p.where(op) + ": attribute '" + std::string(ao[i].first) + "' changed";
  }
  return {};
}

// Top-level entries of a dictionary's text (between its braces).
struct DictEntry {
  std::string key;
  std::string_view text;
};

std::vector<DictEntry> splitDict(std::string_view body) {
  std::vector<DictEntry> out;
  auto push = [&](size_t b, size_t e) {
    std::string_view t = body.substr(b, e - b);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    if (t.empty()) return;
    std::string key;
    if (t.front() == '"') {
      size_t i = 1;
      while (i < t.size() && t[i] != '"') i += t[i] == '\\' ? 2 : 1;
      key = std::string(t.substr(1, std::min(i, t.size()) - 1));
    } else {
      size_t i = 0;
      while (i < t.size() && t[i] != '=' && !std::isspace(static_cast<unsigned char>(t[i]))) ++i;
      key = std::string(t.substr(0, i));
    }
    out.push_back({std::move(key), t});
  };
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c == '"') {
      for (++i; i < body.size() && body[i] != '"'; ++i)
        if (body[i] == '\\') ++i;
    } else if (c == '<' || c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == '>' && (i == 0 || body[i - 1] != '-')) || c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      push(start, i);
      start = i + 1;
    }
  }
  push(start, body.size());
  return out;
}

// The dictionary `{...}` with `changes` applied to `existing` (sorted
// insertion of new keys, replaced values in place).
std::string rebuildDict(std::vector<DictEntry> existing, const std::vector<KeyChange> &changes) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (const DictEntry &e : existing) entries.emplace_back(e.key, std::string(e.text));
  for (const KeyChange &c : changes) {
    auto it = std::find_if(entries.begin(), entries.end(), [&](const auto &e) { return e.first == c.key; });
    if (!c.value) {
      if (it != entries.end()) entries.erase(it);
      continue;
    }
    std::string text = std::string(c.key) + " = " + *c.value;
    if (it != entries.end()) {
      it->second = std::move(text);
      continue;
    }
    auto at = std::find_if(entries.begin(), entries.end(), [&](const auto &e) { return e.first > c.key; });
    entries.insert(at, {std::string(c.key), std::move(text)});
  }
  std::string out = "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    out += entries[i].second;
  }
  out += '}';
  return out;
}

// Back over whitespace: where text inserted before `offset` should go.
uint32_t afterPrevious(std::string_view src, uint32_t offset) {
  while (offset > 0 && std::isspace(static_cast<unsigned char>(src[offset - 1]))) --offset;
  return offset;
}

class Patcher {
public:
  Patcher(const Module &o, const Module &p) : o_(o), p_(p), src_(*p.source) {}

  std::optional<std::string> run(std::string *why) {
    if (p_.ops.size() < o_.ops.size() || p_.values.size() != o_.values.size() || p_.top != o_.top)
      return fail(why, "ops or values were added or removed");
    for (OpId op = 0; op < o_.ops.size(); ++op) {
      if (std::string d = structuralDifference(o_, p_, op); !d.empty()) return fail(why, d);
      if (!editOp(op, why)) return std::nullopt;
    }
    for (OpId op = OpId(o_.ops.size()); op < p_.ops.size(); ++op) {
      if (!p_.isa(op, "sdy.mesh") || p_.parentOp(op) != p_.top)
        return fail(why, "a " + std::string(p_.opName(op)) + " op was added");
      std::string line = meshText(op);
      if (p_.moduleBodyBegin != kNone)
        edits_.push_back({p_.moduleBodyBegin, p_.moduleBodyBegin, "\n  " + line});
      else
        edits_.push_back({0, 0, line + "\n"});
    }
    std::stable_sort(edits_.begin(), edits_.end(), [](const TextEdit &a, const TextEdit &b) { return a.begin < b.begin; });
    std::string out;
    out.reserve(src_.size() + edits_.size() * 64);
    uint32_t at = 0;
    for (const TextEdit &e : edits_) {
      if (e.begin < at) return fail(why, "overlapping edits");
      out.append(src_.substr(at, e.begin - at));
      out += e.text;
      at = e.end;
    }
    out.append(src_.substr(at));
    return out;
  }

private:
  std::optional<std::string> fail(std::string *why, std::string reason) {
    refuse(why, std::move(reason));
    return std::nullopt;
  }
  static bool refuse(std::string *why, std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  }

  std::string meshText(OpId op) const {
    std::string mesh = p_.attrs.str(p_.attr(op, "mesh"));
    if (mesh.starts_with("#sdy.mesh")) mesh.erase(0, 9);
    return "sdy.mesh @" + std::string(p_.attrs.stringValue(p_.attr(op, "sym_name"))) + " = " + mesh;
  }

  // The plan's keys whose values differ between the two dictionaries /
  // attribute lists, read through `get(module, key)`.
  template <typename Get> std::vector<KeyChange> changes(Get get) const {
    std::vector<KeyChange> out;
    for (std::string_view k : kKeys) {
      std::optional<std::string> before = attrText(o_, get(o_, k)), after = attrText(p_, get(p_, k));
      if (before != after) out.push_back({k, std::move(after)});
    }
    return out;
  }

  bool editDict(uint32_t begin, uint32_t end, bool keyword, const std::vector<KeyChange> &cs, std::string *why,
                const std::string &where) {
    if (cs.empty()) return true;
    if (begin == kNone) return refuse(why, where + ": no source position for its attributes");
    if (end == kNone) {
      if (std::none_of(cs.begin(), cs.end(), [](const KeyChange &c) { return c.value.has_value(); })) return true;
      uint32_t at = afterPrevious(src_, begin);
      edits_.push_back({at, at, std::string(keyword ? " attributes " : " ") + rebuildDict({}, cs)});
      return true;
    }
    std::string_view body = src_.substr(begin + 1, end - begin - 2);
    edits_.push_back({begin, end, rebuildDict(splitDict(body), cs)});
    return true;
  }

  bool editOp(OpId op, std::string *why) {
    const Operation &info = p_.ops[op];
    if (p_.isa(op, "sdy.mesh")) {
      if (sameAttr(o_, o_.attr(op, "mesh"), p_, p_.attr(op, "mesh"))) return true;
      if (info.srcEnd == kNone) return refuse(why, p_.where(op) + ": no source position");
      edits_.push_back({info.srcOffset, info.srcEnd, meshText(op)});
      return true;
    }
    std::vector<KeyChange> cs = changes([op](const Module &m, std::string_view k) { return m.attr(op, k); });
    if (!editDict(info.dictBegin, info.dictEnd, info.dictKeyword, cs, why, p_.where(op))) return false;
    if (!p_.isa(op, "func.func")) return true;
    return editSignature(op, why);
  }

  bool editSignature(OpId op, std::string *why) {
    const SignatureSpans *spans = nullptr;
    for (const SignatureSpans &s : p_.signatures)
      if (s.func == op) spans = &s;
    FuncView fp{p_, op};
    for (const char *list : {"arg_attrs", "res_attrs"}) {
      bool isArg = list[0] == 'a';
      size_t n = isArg ? fp.args().size() : fp.numResults();
      for (size_t i = 0; i < n; ++i) {
        AttrId dOld = listDict(o_, op, list, i), dNew = listDict(p_, op, list, i);
        if (!sameDictBesidesPlan(o_, dOld, p_, dNew))
          return refuse(why, p_.where(op) + ": " + (isArg ? "argument " : "result ") + std::to_string(i) +
                                 " attributes changed");
        std::vector<KeyChange> cs = changes([&](const Module &m, std::string_view k) {
          return dictEntry(m, &m == &o_ ? dOld : dNew, k);
        });
        if (cs.empty()) continue;
        std::string where = p_.where(op) + ": " + (isArg ? "argument " : "result ") + std::to_string(i);
        const std::vector<SignatureSpans::Entry> *entries = spans ? (isArg ? &spans->args : &spans->results) : nullptr;
        if (!entries || i >= entries->size()) return refuse(why, where + ": no source position");
        const SignatureSpans::Entry &e = (*entries)[i];
        if (!isArg && spans->bareResult) {
          if (e.typeBegin == kNone) return refuse(why, where + ": no source position");
          std::string type(src_.substr(e.typeBegin, e.typeEnd - e.typeBegin));
          edits_.push_back({e.typeBegin, e.typeEnd, "(" + type + " " + rebuildDict({}, cs) + ")"});
          continue;
        }
        if (!editDict(e.dictBegin, e.dictEnd, false, cs, why, where)) return false;
      }
    }
    return true;
  }

  const Module &o_, &p_;
  std::string_view src_;
  std::vector<TextEdit> edits_;
};

}  // namespace

std::optional<std::string> preserveText(const Module &planned, std::string *why) {
  if (!planned.source) {
    if (why) *why = "the module was not parsed from text";
    return std::nullopt;
  }
  ParseError err;
  std::unique_ptr<Module> original = parseModule(*planned.source, planned.fileName, &err);
  if (!original) {
    if (why) *why = "the input no longer parses: " + err.message;
    return std::nullopt;
  }
  return Patcher(*original, planned).run(why);
}

std::string plannedModuleText(const Module &planned, bool reprint, std::string *note) {
  if (!reprint) {
    std::string why;
    if (std::optional<std::string> text = preserveText(planned, &why)) return std::move(*text);
    *note = "note: writing the program re-printed, not as its input text (" + why + ")";
  }
  return printModule(planned);
}

bool writePlannedModule(const Module &planned, const std::string &path, bool reprint, Diagnostics &diags) {
  if (!reprint) {
    std::string why;
    if (std::optional<std::string> text = preserveText(planned, &why)) return writeFileAtomic(path, *text, diags);
    std::cerr << "note: writing the program re-printed, not as its input text (" << why << ")\n";
  }
  return writeFileAtomicWith(path, [&](std::ostream &os) { return printModule(planned, os); }, diags);
}

}  // namespace autopart
