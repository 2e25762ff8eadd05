#include "ir/Module.h"

#include <algorithm>

namespace autopart {

Module::Module() : attrs(types, names) {}

OpId Module::parentOp(OpId op) const {
  BlockId b = ops[op].parent;
  if (b == kNone) return kNone;
  return regions[blocks[b].parent].parent;
}

OpId Module::enclosingFunc(OpId op) const {
  for (OpId p = parentOp(op); p != kNone; p = parentOp(p))
    if (isa(p, "func.func")) return p;
  return kNone;
}

AttrId Module::attr(OpId op, std::string_view name) const {
  NameId id = names.find(name);
  if (id == kNoName) return kNoAttr;
  for (const NamedAttr &a : attributes(op))
    if (a.name == id) return a.value;
  return kNoAttr;
}

void Module::setAttr(OpId op, std::string_view name, AttrId value) {
  NameId id = names.get(name);
  Operation &o = ops[op];
  for (uint32_t i = 0; i < o.numAttrs; ++i)
    if (attrPool[o.attrBegin + i].name == id) {
      attrPool[o.attrBegin + i].value = value;
      return;
    }
  // Appending the widened list at the end of the pool keeps other ops' ranges
  // intact; the old range becomes garbage, which attribute edits can afford.
  std::vector<NamedAttr> list(attrPool.begin() + o.attrBegin,
                              attrPool.begin() + o.attrBegin + o.numAttrs);
  NamedAttr entry{id, value};
  auto pos = std::lower_bound(list.begin(), list.end(), entry,
                              [&](const NamedAttr &a, const NamedAttr &b) {
                                return names.str(a.name) < names.str(b.name);
                              });
  list.insert(pos, entry);
  o.attrBegin = uint32_t(attrPool.size());
  o.numAttrs = uint32_t(list.size());
  attrPool.insert(attrPool.end(), list.begin(), list.end());
}

void Module::removeAttr(OpId op, std::string_view name) {
  NameId id = names.find(name);
  if (id == kNoName) return;
  Operation &o = ops[op];
  auto begin = attrPool.begin() + o.attrBegin;
  auto end = begin + o.numAttrs;
  auto it = std::find_if(begin, end, [&](const NamedAttr &a) { return a.name == id; });
  if (it == end) return;
  std::move(it + 1, end, it);
  --o.numAttrs;
}

void Module::linkUse(uint32_t slot, ValueId v) {
  if (useNext_.size() < operandPool.size()) {
    useNext_.resize(operandPool.size(), kNone);
    usePrev_.resize(operandPool.size(), kNone);
    useOwner_.resize(operandPool.size(), kNone);
  }
  usePrev_[slot] = kNone;
  useNext_[slot] = kNone;
  if (v == kNone) return;
  if (firstUse_.size() <= v) firstUse_.resize(std::max<size_t>(values.size(), size_t(v) + 1), kNone);
  uint32_t head = firstUse_[v];
  useNext_[slot] = head;
  if (head != kNone) usePrev_[head] = slot;
  firstUse_[v] = slot;
}

void Module::unlinkUse(uint32_t slot) {
  ValueId v = operandPool[slot];
  if (v == kNone || v >= firstUse_.size()) return;
  uint32_t prev = usePrev_[slot], next = useNext_[slot];
  if (prev != kNone)
    useNext_[prev] = next;
  else if (firstUse_[v] == slot)
    firstUse_[v] = next;
  if (next != kNone) usePrev_[next] = prev;
  usePrev_[slot] = useNext_[slot] = kNone;
}

void Module::setOperand(OpId op, uint32_t i, ValueId v) {
  uint32_t slot = ops[op].operandBegin + i;
  if (operandPool[slot] == v) return;
  unlinkUse(slot);
  operandPool[slot] = v;
  linkUse(slot, v);
}

void Module::setOperands(OpId op, const std::vector<ValueId> &vs) {
  Operation &o = ops[op];
  for (uint32_t i = 0; i < o.numOperands; ++i) unlinkUse(o.operandBegin + i);
  if (vs.size() <= o.numOperands) {
    std::copy(vs.begin(), vs.end(), operandPool.begin() + o.operandBegin);
  } else {
    o.operandBegin = uint32_t(operandPool.size());
    operandPool.insert(operandPool.end(), vs.begin(), vs.end());
  }
  o.numOperands = uint32_t(vs.size());
  for (uint32_t i = 0; i < o.numOperands; ++i) {
    linkUse(o.operandBegin + i, vs[i]);
    useOwner_[o.operandBegin + i] = op;
  }
}

BlockId Module::createBlock(RegionId region) {
  BlockId b = BlockId(blocks.size());
  blocks.push_back(Block{region, {}, {}});
  regions[region].blocks.push_back(b);
  return b;
}

ValueId Module::addBlockArg(BlockId block, TypeId type) {
  ValueId v = ValueId(values.size());
  values.push_back(ValueInfo{type, block, uint32_t(blocks[block].args.size()), true, kNoAttr});
  blocks[block].args.push_back(v);
  return v;
}

OpId Module::createOp(std::string_view name, const std::vector<ValueId> &operandList,
                      const std::vector<TypeId> &resultTypes,
                      const std::vector<NamedAttr> &attrList, uint32_t numRegions) {
  OpId id = OpId(ops.size());
  Operation o;
  o.name = names.get(name);
  o.operandBegin = uint32_t(operandPool.size());
  o.numOperands = uint32_t(operandList.size());
  operandPool.insert(operandPool.end(), operandList.begin(), operandList.end());
  for (uint32_t i = 0; i < o.numOperands; ++i) {
    linkUse(o.operandBegin + i, operandList[i]);
    useOwner_[o.operandBegin + i] = id;
  }
  o.resultBegin = uint32_t(values.size());
  o.numResults = uint32_t(resultTypes.size());
  for (uint32_t i = 0; i < resultTypes.size(); ++i)
    values.push_back(ValueInfo{resultTypes[i], id, i, false, kNoAttr});
  std::vector<NamedAttr> sorted = attrList;
  std::stable_sort(sorted.begin(), sorted.end(), [&](const NamedAttr &a, const NamedAttr &b) {
    return names.str(a.name) < names.str(b.name);
  });
  o.attrBegin = uint32_t(attrPool.size());
  o.numAttrs = uint32_t(sorted.size());
  attrPool.insert(attrPool.end(), sorted.begin(), sorted.end());
  o.regionBegin = uint32_t(regionPool.size());
  o.numRegions = numRegions;
  for (uint32_t i = 0; i < numRegions; ++i) {
    regionPool.push_back(RegionId(regions.size()));
    regions.push_back(Region{id, {}});
  }
  ops.push_back(o);
  return id;
}

RegionId Module::createRegion() {
  regions.push_back(Region{kNone, {}});
  return RegionId(regions.size() - 1);
}

void Module::attachRegions(OpId op, const std::vector<RegionId> &rs) {
  Operation &o = ops[op];
  o.regionBegin = uint32_t(regionPool.size());
  o.numRegions = uint32_t(rs.size());
  for (RegionId r : rs) {
    regionPool.push_back(r);
    regions[r].parent = op;
  }
}

void Module::insertOp(BlockId block, OpId op, OpId before) {
  std::vector<OpId> &list = blocks[block].ops;
  ops[op].parent = block;
  if (before == kNone) {
    list.push_back(op);
    return;
  }
  size_t at = positionInBlock(block, before);
  list.insert(list.begin() + ptrdiff_t(at), op);
  hintBlock_ = block;
  hintIndex_ = at;
}

OpId Module::nextInBlock(OpId op) {
  BlockId b = ops[op].parent;
  if (b == kNone) return kNone;
  const std::vector<OpId> &list = blocks[b].ops;
  size_t at = positionInBlock(b, op);
  return at + 1 >= list.size() ? kNone : list[at + 1];
}

size_t Module::positionInBlock(BlockId block, OpId op) {
  const std::vector<OpId> &list = blocks[block].ops;
  size_t n = list.size();
  size_t start = hintBlock_ == block ? std::min(hintIndex_, n) : 0;
  auto found = [&](size_t at) {
    hintBlock_ = block;
    hintIndex_ = at;
    return at;
  };
  // Outward from the hint, forward and backward in turn.
  for (size_t d = 0; start + d < n || d <= start; ++d) {
    if (start + d < n && list[start + d] == op) return found(start + d);
    if (d && d <= start && list[start - d] == op) return found(start - d);
  }
  return n;
}

void Module::eraseOp(OpId op) {
  BlockId b = ops[op].parent;
  if (b == kNone) return;
  std::vector<OpId> &list = blocks[b].ops;
  list.erase(std::remove(list.begin(), list.end(), op), list.end());
  ops[op].parent = kNone;
}

void Module::replaceAllUsesWith(ValueId from, ValueId to, OpId scope) {
  if (from == to || from >= firstUse_.size()) return;
  for (uint32_t slot = firstUse_[from], next; slot != kNone; slot = next) {
    next = useNext_[slot];
    if (!isNestedIn(useOwner_[slot], scope)) continue;
    unlinkUse(slot);
    operandPool[slot] = to;
    linkUse(slot, to);
  }
}

bool Module::isNestedIn(OpId op, OpId scope) const {
  for (BlockId b = ops[op].parent; b != kNone;) {
    RegionId r = blocks[b].parent;
    if (r == kNone) return false;
    OpId parent = regions[r].parent;
    if (parent == scope) return true;
    if (parent == kNone) return false;
    b = ops[parent].parent;
  }
  return false;
}

void Module::walk(OpId root, const std::function<void(OpId)> &fn) const {
  // Explicit stack: deeply nested programs must not overflow the C++ stack.
  std::vector<std::pair<BlockId, size_t>> stack;
  auto pushRegions = [&](OpId op) {
    const Operation &o = ops[op];
    for (uint32_t r = o.numRegions; r-- > 0;) {
      const Region &reg = regions[regionPool[o.regionBegin + r]];
      for (size_t b = reg.blocks.size(); b-- > 0;) stack.push_back({reg.blocks[b], 0});
    }
  };
  pushRegions(root);
  while (!stack.empty()) {
    auto &[block, index] = stack.back();
    const std::vector<OpId> &list = blocks[block].ops;
    if (index >= list.size()) {
      stack.pop_back();
      continue;
    }
    OpId op = list[index++];
    fn(op);
    pushRegions(op);
  }
}

std::vector<OpId> Module::functions() const {
  std::vector<OpId> out;
  if (top == kNone) return out;
  for (BlockId b : regions[region(top, 0)].blocks)
    for (OpId op : blocks[b].ops)
      if (isa(op, "func.func")) out.push_back(op);
  return out;
}

OpId Module::lookupSymbol(std::string_view name) const {
  if (top == kNone) return kNone;
  for (BlockId b : regions[region(top, 0)].blocks)
    for (OpId op : blocks[b].ops) {
      AttrId a = attr(op, "sym_name");
      if (a != kNoAttr && attrs.stringValue(a) == name) return op;
    }
  return kNone;
}

OpId Module::lookupFunc(AttrId symbolRef) const {
  if (symbolRef == kNoAttr) return kNone;
  std::string_view sym = attrs.get(symbolRef).text;
  if (sym.starts_with("@")) sym.remove_prefix(1);
  // `@"<lambda>"`: definitions keep the name without its quotes.
  if (sym.size() >= 2 && sym.front() == '"' && sym.back() == '"') sym = sym.substr(1, sym.size() - 2);
  OpId f = lookupSymbol(sym);
  return f != kNone && isa(f, "func.func") ? f : kNone;
}

OpId Module::findEntryFunction(const std::string &wanted) const {
  OpId fallback = kNone;
  for (OpId f : functions()) {
    FuncView v{*this, f};
    if (v.entry() == kNone) continue;
    if (!wanted.empty()) {
      if (v.name() == wanted) return f;
      continue;
    }
    if (v.name() == "main") return f;
    AttrId vis = attr(f, "sym_visibility");
    if (fallback == kNone && (vis == kNoAttr || attrs.stringValue(vis) == "public")) fallback = f;
  }
  return fallback;
}

SourcePosition Module::position(OpId op) const {
  SourceLoc l = op == kNone ? SourceLoc{1, 1} : lineCol(ops[op].srcOffset);
  return SourcePosition{fileName, l.line, l.col};
}

SourceLoc Module::lineCol(uint32_t offset) const {
  if (!source) return SourceLoc{1, 1};
  const std::string &s = *source;
  if (lineStarts_.empty()) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] == '\n') lineStarts_.push_back(uint32_t(i + 1));
  }
  uint32_t off = std::min<uint32_t>(offset, uint32_t(s.size()));
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), off);
  size_t line = size_t(it - lineStarts_.begin());  // 1-based
  return SourceLoc{uint32_t(line), off - lineStarts_[line - 1] + 1};
}

std::string Module::where(OpId op) const {
  SourceLoc l = lineCol(ops[op].srcOffset);
  return fileName + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

// --- FuncView ----------------------------------------------------------------

std::string_view FuncView::name() const { return m.attrs.stringValue(m.attr(op, "sym_name")); }

BlockId FuncView::entry() const {
  if (m.numRegions(op) == 0) return kNone;
  const Region &r = m.regions[m.region(op, 0)];
  return r.blocks.empty() ? kNone : r.blocks[0];
}

std::span<const ValueId> FuncView::args() const {
  BlockId b = entry();
  if (b == kNone) return {};
  return m.blocks[b].args;
}

std::vector<TypeId> FuncView::resultTypes() const {
  AttrId ft = m.attr(op, "function_type");
  if (ft == kNoAttr) return {};
  return m.types.get(m.attrs.get(ft).type).results;
}

OpId FuncView::returnOp() const {
  BlockId b = entry();
  if (b == kNone || m.blocks[b].ops.empty()) return kNone;
  OpId last = m.blocks[b].ops.back();
  return m.isa(last, "func.return") ? last : kNone;
}

AttrId FuncView::entryAttr(std::string_view listName, size_t i, std::string_view name) const {
  AttrId list = m.attr(op, listName);
  if (list == kNoAttr) return kNoAttr;
  const AttrStorage &a = m.attrs.get(list);
  if (i >= a.elems.size()) return kNoAttr;
  return name.empty() ? a.elems[i] : m.attrs.field(a.elems[i], name);
}

AttrId FuncView::argAttr(size_t i, std::string_view name) const {
  return entryAttr("arg_attrs", i, name);
}
AttrId FuncView::resultAttr(size_t i, std::string_view name) const {
  return entryAttr("res_attrs", i, name);
}
AttrId FuncView::argDict(size_t i) const { return entryAttr("arg_attrs", i, {}); }
AttrId FuncView::resultDict(size_t i) const { return entryAttr("res_attrs", i, {}); }

void MutableFuncView::setEntryAttr(std::string_view listName, size_t count, size_t i,
                            std::string_view name, AttrId value) {
  AttrId list = mm.attr(op, listName);
  std::vector<AttrId> dicts;
  if (list != kNoAttr) dicts = mm.attrs.get(list).elems;
  AttrId empty = mm.attrs.dict({});
  dicts.resize(count, empty);
  std::vector<std::pair<NameId, AttrId>> entries;
  const AttrStorage &d = mm.attrs.get(dicts[i]);
  NameId key = mm.names.get(name);
  for (size_t k = 0; k < d.keys.size(); ++k)
    if (d.keys[k] != key) entries.push_back({d.keys[k], d.elems[k]});
  if (value != kNoAttr) entries.push_back({key, value});
  dicts[i] = mm.attrs.dict(std::move(entries));
  bool allEmpty = std::all_of(dicts.begin(), dicts.end(), [&](AttrId a) { return a == empty; });
  if (allEmpty)
    mm.removeAttr(op, listName);
  else
    mm.setAttr(op, listName, mm.attrs.array(std::move(dicts)));
}

void MutableFuncView::setArgAttr(size_t i, std::string_view name, AttrId value) {
  setEntryAttr("arg_attrs", args().size(), i, name, value);
}
void MutableFuncView::setResultAttr(size_t i, std::string_view name, AttrId value) {
  setEntryAttr("res_attrs", numResults(), i, name, value);
}
void MutableFuncView::removeArgAttr(size_t i, std::string_view name) {
  setEntryAttr("arg_attrs", args().size(), i, name, kNoAttr);
}
void MutableFuncView::removeResultAttr(size_t i, std::string_view name) {
  setEntryAttr("res_attrs", numResults(), i, name, kNoAttr);
}

}  // namespace autopart
