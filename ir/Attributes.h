// Attributes of the autopart IR, interned by their canonical spelling: an
// attribute is a 32-bit AttrId into the module's AttrTable and its printed form
// is computed once, when it is made. Structured kinds keep their parts for the
// pipeline to read (array elements, dictionary entries, shardings, rules);
// dialect attributes that no stage interprets (`#stablehlo.gather<...>`,
// `#stablehlo<precision DEFAULT>`) keep their key/value parts where they have
// them and are otherwise printed back as written.
//
// Large dense constants are the exception: `dense<"0x0000803F...">` keeps a
// view of the input buffer instead of a copy, and is not interned.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/Sharding.h"
#include "ir/ShardingRule.h"
#include "ir/Types.h"

namespace autopart {

using AttrId = uint32_t;
inline constexpr AttrId kNoAttr = 0xffffffffu;

// Interned identifiers (attribute names, op names, symbol names).
using NameId = uint32_t;
inline constexpr NameId kNoName = 0xffffffffu;

class NamePool {
public:
  NameId get(std::string_view s);
  // The id of `s` if it was ever interned, else kNoName (no insertion).
  NameId find(std::string_view s) const;
  std::string_view str(NameId id) const { return names_[id]; }

private:
  std::deque<std::string> names_;
  std::unordered_map<std::string_view, NameId> ids_;
};

enum class AttrKind : uint8_t {
  Unit,              // `unit` or a bare key in a dictionary
  Bool,              // true / false
  Integer,           // 3 or 3 : i32
  Float,             // 1.0 or 1.000000e+00 : f32
  String,            // "text" (kept escaped, as written)
  Type,              // a type used as an attribute: `tensor<4xf32>`
  SymbolRef,         // @foo, @foo::@bar
  Array,             // [a, b]
  DenseArray,        // array<i64: 1, 2>
  DenseElements,     // dense<...> : tensor<...>, sparse / dense_resource kept
  Dict,              // {a = 1, b}
  DialectStruct,     // #dialect.name<key = value, ...>
  Sharding,          // #sdy.sharding<...> (or a bare <@mesh, [...]>)
  ShardingPerValue,  // #sdy.sharding_per_value<[...]>
  ShardingRule,      // #sdy.op_sharding_rule<...>
  Mesh,              // #sdy.mesh<[...]> or a bare <[...]> in sdy.mesh
  Opaque,            // anything else, printed back as written
};

struct AttrStorage {
  AttrKind kind = AttrKind::Opaque;
  int64_t intValue = 0;    // Integer, Bool
  double floatValue = 0;   // Float
  TypeId type = kNoType;   // Integer/Float suffix, Type, DenseArray element,
                           // DenseElements tensor type
  std::string text;        // canonical spelling (not for DenseElements)
  std::string_view body;   // DenseElements: text between `dense<` and `>`
  std::string_view prefix; // DenseElements: "dense" / "dense_resource" / ...
  std::string dialectName; // DialectStruct: "stablehlo.gather"
  std::vector<AttrId> elems;   // Array, Dict values, DialectStruct values
  std::vector<NameId> keys;    // Dict / DialectStruct keys
  std::vector<int64_t> ints;   // DenseArray values (bools as 0/1)
  std::vector<double> floats;  // DenseArray of floats
  std::unique_ptr<TensorSharding> sharding;
  std::vector<TensorSharding> shardings;  // ShardingPerValue
  std::unique_ptr<OpShardingRule> rule;
  std::unique_ptr<Mesh> mesh;
};

class AttrTable {
public:
  AttrTable(TypeTable &types, NamePool &names) : types_(types), names_(names) {}

  const AttrStorage &get(AttrId id) const { return attrs_[id]; }
  AttrKind kind(AttrId id) const { return attrs_[id].kind; }
  // Canonical spelling; for dense constants the full `dense<...> : type`.
  std::string str(AttrId id) const;
  // Appends the canonical spelling to `out` without temporaries.
  void print(AttrId id, std::string &out) const;

  AttrId unit();
  AttrId boolean(bool v);
  AttrId integer(int64_t v, TypeId type = kNoType);
  // `spelling` is the number as written (kept for exact printing).
  AttrId floating(double v, std::string_view spelling, TypeId type = kNoType);
  AttrId string(std::string_view escapedContents);
  AttrId typeAttr(TypeId type);
  AttrId symbolRef(std::string_view spelling);  // "@foo" or "@a::@b"
  AttrId array(std::vector<AttrId> elems);
  AttrId denseArray(TypeId element, std::vector<int64_t> values);
  AttrId denseArrayFloat(TypeId element, std::vector<double> values,
                         std::vector<std::string> spellings);
  AttrId denseElements(std::string_view prefix, std::string_view body, TypeId type);
  // Same, for a body the caller built (the table keeps a copy).
  AttrId denseElementsOwned(std::string_view prefix, std::string body, TypeId type);
  // Keys are sorted by name as MLIR's DictionaryAttr does.
  AttrId dict(std::vector<std::pair<NameId, AttrId>> entries);
  AttrId dialectStruct(std::string_view dialectName,
                       std::vector<std::pair<NameId, AttrId>> entries);
  AttrId sharding(TensorSharding s);
  AttrId shardingPerValue(std::vector<TensorSharding> s);
  AttrId shardingRule(OpShardingRule rule);
  AttrId mesh(Mesh m);
  AttrId opaque(std::string_view text);

  // Convenience readers; callers check kinds where it matters.
  std::vector<int64_t> intList(AttrId id) const;  // Array of ints / DenseArray
  // The integers of a `dense<...>` attribute in order, booleans as 0/1: a
  // list, a splat repeated over the type's elements, or a hex string of
  // 8- to 64-bit integers (little-endian). Other kinds read as intList;
  // kNoAttr and `dense_resource` blobs give nothing.
  std::vector<int64_t> denseInts(AttrId id) const;
  std::string_view stringValue(AttrId id) const;  // unquoted String contents
  // DialectStruct / Dict lookup by key; kNoAttr when absent.
  AttrId field(AttrId id, std::string_view key) const;
  // A `dense<v>` holding one value for every element (`dense<0.0>`), not a
  // list, a hex string or a `dense_resource` blob.
  bool isSplat(AttrId id) const;

private:
  AttrId intern(AttrStorage &&s);
  TypeTable &types_;
  NamePool &names_;
  std::deque<AttrStorage> attrs_;
  std::unordered_map<std::string_view, AttrId> byText_;
  std::deque<std::string> ownedText_;
};

// Escapes `raw` for use inside a quoted MLIR string (and back).
std::string escapeString(std::string_view raw);
std::string unescapeString(std::string_view escaped);

}  // namespace autopart
