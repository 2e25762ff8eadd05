// Internal: the recursive-descent parser shared by the generic grammar and
// the custom op forms (ir/*Syntax.cpp). Its members are defined by concept:
// lexing in asm/Lexer.cpp, types in ir/TypeParser.cpp, attributes in
// ir/AttributeParser.cpp and ir/ShardingParser.cpp, values, ops, regions and
// modules in asm/Parser.cpp. It reads
// characters directly (no token stream): MLIR's grammar is context-dependent
// (`4x8xf32` inside a type, `[0:4:2]` in a slice), and one pass over the bytes
// is what makes parsing fast.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "asm/Parser.h"
#include "ir/Module.h"

namespace autopart {

// An op being parsed, created once fully read.
struct OpState {
  std::string name;
  std::vector<ValueId> operands;
  std::vector<TypeId> resultTypes;
  std::vector<NamedAttr> attrs;
  std::vector<RegionId> regions;
  // Number of results named before `=` (custom forms of unknown ops use it).
  uint32_t declaredResults = 0;
  // Source spans (see Operation::dictBegin, SignatureSpans).
  uint32_t dictBegin = kNone, dictEnd = kNone;
  bool dictKeyword = false;
  SignatureSpans signature;
  // Block arguments to define in a region's entry block: (name, type, loc).
  struct Arg {
    std::string_view name;
    TypeId type;
    AttrId loc = kNoAttr;
  };
};

class Parser {
public:
  Parser(Module &m, std::string_view text);

  bool parseTopLevel();
  const ParseError &error() const { return error_; }

  // --- Lexing ----------------------------------------------------------------
  void skipWs();
  bool atEnd() { return skipWs(), p_ >= end_; }
  char peek() { return skipWs(), p_ < end_ ? *p_ : '\0'; }
  bool peekStr(std::string_view s) {
    skipWs();
    return std::string_view(p_, size_t(end_ - p_)).starts_with(s);
  }
  bool consumeIf(char c);
  // Consumes `kw` when it is followed by a non-identifier character.
  bool consumeKeyword(std::string_view kw);
  bool consumeStr(std::string_view s);  // exact characters
  bool expect(char c);
  bool expectStr(std::string_view s);
  bool expectKeyword(std::string_view kw);
  std::string_view parseBareId();  // empty when none
  bool parseInt(int64_t &v);
  bool parseIntList(std::vector<int64_t> &out);  // [1, 2] (possibly empty)
  // A quoted string; returns the escaped contents between the quotes.
  bool parseStringLiteral(std::string_view &contents);
  // `@name` or `@"quoted name"`; returns the name without `@` and quotes.
  bool parseSymbolName(std::string_view &name);
  // Text up to the bracket matching the one just consumed (`open` is one of
  // <([{); returns the inner text and consumes the closing bracket.
  bool skipBalanced(char open, std::string_view &inner);
  const char *pos() const { return p_; }
  std::string_view rest() const { return {p_, size_t(end_ - p_)}; }  // unread text
  void setPos(const char *p) { p_ = p; }
  uint32_t offset() const { return uint32_t(p_ - begin_); }

  // --- Values ----------------------------------------------------------------
  bool parseValueUse(ValueId &v);
  bool parseValueUseList(std::vector<ValueId> &vs);  // comma separated, maybe empty
  // `%name` being defined as a block argument.
  bool parseValueDefName(std::string_view &name);
  void defineValue(std::string_view name, ValueId v);
  void pushScope();
  void popScope();

  // --- Types and attributes ---------------------------------------------------
  bool parseType(TypeId &t);
  bool parseTypeList(std::vector<TypeId> &ts);  // t1, t2 (at least one)
  // `(t1, t2) -> t3` or `(t1) -> (t2, t3)`; the leading `(` not yet consumed.
  bool parseFunctionType(std::vector<TypeId> &ins, std::vector<TypeId> &outs);
  bool parseAttr(AttrId &a, TypeId expectedType = kNoType);
  bool parseAttrDict(std::vector<NamedAttr> &attrs);  // `{...}`
  bool parseOptionalAttrDict(std::vector<NamedAttr> &attrs) {
    return peek() == '{' ? parseAttrDict(attrs) : true;
  }
  // An op's own attribute dictionary where its syntax allows one (`{...}`,
  // or after `keyword` when given), recording where it is or would go.
  bool parseOpAttrDict(OpState &st, std::string_view keyword = {});
  bool parseOptionalLoc(AttrId &loc);
  bool parseSharding(TensorSharding &s);  // `<@mesh, [...]>` (no #sdy.sharding)
  bool parseMesh(Mesh &m);                // `<["a"=2], device_ids=[...]>`
  bool parseShardingRule(OpShardingRule &r);  // `<(...)->(...) ...>`
  bool parseAxisList(std::vector<AxisRef> &axes);  // `{"a", "b":(1)2}`
  bool parseAxisRef(AxisRef &ref);                 // `"b":(1)2`
  bool parsePriority(std::optional<int64_t> &priority);  // `p3`, at the `p`

  // --- Ops and regions --------------------------------------------------------
  bool parseOperation(BlockId block);
  // Parses `{ ... }`; `entryArgs` become the entry block's arguments when the
  // region has no `^bb(...)` label of its own.
  bool parseRegion(RegionId &r, const std::vector<OpState::Arg> &entryArgs = {});
  bool parseGenericOpBody(OpState &st);  // after the quoted name
  // The pretty form of an op autopart has no syntax for (`check.expect_eq
  // %a, %b : t`): its text up to the type is kept as a template in which
  // operands are `$N`, so it prints back as written with renamed values.
  bool parseUnknownCustomOp(OpState &st);
  // `: (ins) -> outs` or `: t` shorthands; fills result types of `st`.
  bool parseSameOperandsAndResultType(OpState &st);
  bool parseFunctionalResultType(OpState &st);

  bool fail(const std::string &message);
  bool failAt(const char *where, const std::string &message);
  // After a failure, adds the error of the construct it happened in (at
  // `where`); returns false.
  bool failContext(const char *where, const std::string &message);
  // Prefixes every error recorded so far, as a custom op's parser does
  // ("custom op 'sdy.mesh' ...").
  void prefixErrors(std::string_view prefix);
  Module &m;
  NameId nameOf(std::string_view s) { return m.names.get(s); }
  void addAttr(OpState &st, std::string_view name, AttrId a) {
    st.attrs.push_back({m.names.get(name), a});
  }

private:
  // Deeper types, attributes or ops are rejected instead of overflowing the
  // stack on adversarial input.
  static constexpr int kMaxNesting = 512;

  bool parseModuleBody(OpId moduleOp, bool braced);
  bool parseNestedModules();
  bool parseBlockBody(BlockId block);
  bool parseDialectAttr(AttrId &a);
  bool parseDenseLike(std::string_view prefix, AttrId &a, TypeId expectedType);
  bool parseNumberAttr(AttrId &a, TypeId expectedType);
  bool parseTensorType(TypeId &t);

  const char *begin_, *p_, *end_;
  ParseError error_;
  bool failed_ = false;
  std::unordered_map<std::string_view, ValueId> values_;
  // `%123` names, by number: the common case, kept out of the hash map.
  std::vector<ValueId> numbered_;
  // Undo log for scopes: (name, previous value or kNone).
  std::vector<std::pair<std::string_view, ValueId>> undo_;
  std::vector<std::pair<uint32_t, ValueId>> undoNumbered_;  // (number, previous)
  std::vector<std::pair<size_t, size_t>> scopeMarks_;
  std::unordered_map<std::string_view, std::string_view> attrAliases_;
  std::unordered_map<std::string_view, TypeId> typeAliases_;
  int depth_ = 0;
};

}  // namespace autopart
