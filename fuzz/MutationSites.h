// The sites of a program a sharding mutation can edit, and the small
// sharding helpers the edits share (fuzz/ShardingMutator.cpp): each site is
// one tensor sharding held by an attribute of an op, with the value it
// shards and whether Shardy's rules leave it free to edit.
//
//   func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
//   collectSites -> [{op @f, attr arg_attrs, slot 0, [{"x"}], tensor<8xf32>, free}]
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Module.h"

namespace autopart::fuzz {

using Rng = std::mt19937_64;

inline size_t pick(Rng &rng, size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }

template <class T> const T &pickOne(Rng &rng, const std::vector<T> &v) { return v[pick(rng, v.size())]; }

// One tensor sharding held by an attribute of an op: the `ordinal`-th
// sharding met walking the attribute, belonging to value `slot` of the op
// (argument, result or operand number, depending on the attribute).
struct Site {
  OpId op = kNone;
  NameId attr = kNoName;
  size_t ordinal = 0;
  size_t slot = 0;
  TensorSharding sharding;
  TypeId type = kNoType;  // the sharded value's type, when known
  // Edits that keep Shardy's rules keep the program valid here: function
  // signatures and ops outside manual computations that are not sdy ops
  // (collectives and manual computations constrain their shardings further).
  bool free = false;
  std::string where;
};

bool insideManualComputation(const Module &m, OpId op);

TypeId siteType(const Module &m, OpId op, std::string_view attr, size_t slot);

std::string siteWhere(const Module &m, OpId op, std::string_view attr, size_t slot);

std::vector<Site> collectSites(Module &m);

void writeSite(Module &m, const Site &s, const TensorSharding &value);

std::optional<Mesh> meshOf(const Module &m, const TensorSharding &s);

bool usesAxis(const TensorSharding &s, const std::string &name);

void dropAxis(TensorSharding &s, const std::string &name);

std::vector<int64_t> shapeOf(const Module &m, TypeId t);

std::vector<AxisRef> &someAxisList(TensorSharding &s, Rng &rng);

}  // namespace autopart::fuzz
