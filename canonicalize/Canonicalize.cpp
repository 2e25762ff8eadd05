#include "canonicalize/Canonicalize.h"

#include <algorithm>
#include <map>
#include <string>

#include "canonicalize/SideEffects.h"
#include "ir/Pass.h"

namespace autopart::canonicalize {

namespace {

// MLIR's greedy driver gives up (without failing) after this many sweeps;
// patterns that undo each other would otherwise never stop.
constexpr int kMaxIterations = 10;

struct PatternTable {
  std::map<std::string, std::vector<Pattern>, std::less<>> byOp;
  bool sorted = false;
};

PatternTable &table() {
  static PatternTable t;
  return t;
}

// Every op nested in the functions of `m`, children before their parent and
// in block order otherwise (MLIR's post-order walk).
std::vector<OpId> postOrder(const Module &m) {
  std::vector<OpId> out;
  struct Frame {
    OpId op;
    bool expanded;
  };
  std::vector<Frame> stack;
  for (OpId f : m.functions()) {
    stack.push_back({f, false});
    while (!stack.empty()) {
      Frame fr = stack.back();
      stack.pop_back();
      if (fr.expanded) {
        if (fr.op != f) out.push_back(fr.op);
        continue;
      }
      stack.push_back({fr.op, true});
      // Children are pushed last-first so they pop in order.
      for (uint32_t r = m.numRegions(fr.op); r-- > 0;) {
        const Region &reg = m.regions[m.region(fr.op, r)];
        for (size_t b = reg.blocks.size(); b-- > 0;) {
          const std::vector<OpId> &ops = m.blocks[reg.blocks[b]].ops;
          for (size_t i = ops.size(); i-- > 0;) stack.push_back({ops[i], false});
        }
      }
    }
  }
  return out;
}

using PatternSet = std::set<std::string, std::less<>>;

bool isEnabled(const Pattern &p, const PatternSet *enabled) {
  return !enabled || enabled->count(p.name) || (!p.label.empty() && enabled->count(p.label));
}

void visit(Rewriter &rw, OpId op, const PatternSet *enabled) {
  if (isTriviallyDead(rw, op)) {
    rw.eraseOp(op);
    return;
  }
  for (const Pattern &p : patternsFor(rw.m.opName(op)))
    if (isEnabled(p, enabled) && p.fn(rw, op)) return;
}

bool run(Module &m, const PatternSet *enabled) {
  Rewriter rw(m);
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    rw.clearChanged();
    // Seeded in post-order and popped from the back: the last op of a block
    // is visited first, as in MLIR's default bottom-up traversal.
    for (OpId op : postOrder(m)) rw.enqueue(op);
    while (std::optional<OpId> op = rw.pop()) visit(rw, *op, enabled);
    if (!rw.changed()) break;
  }
  return true;
}

}  // namespace

PatternRegistration::PatternRegistration(std::string_view opName, std::string_view name, PatternFn fn,
                                         int benefit, std::string_view label) {
  PatternTable &t = table();
  t.byOp[std::string(opName)].push_back(Pattern{opName, name, benefit, fn, label});
  t.sorted = false;
}

const std::vector<Pattern> &patternsFor(std::string_view opName) {
  static const std::vector<Pattern> kNoPatterns;
  PatternTable &t = table();
  if (!t.sorted) {
    for (auto &[_, list] : t.byOp)
      std::sort(list.begin(), list.end(), [](const Pattern &a, const Pattern &b) {
        return a.benefit != b.benefit ? a.benefit > b.benefit : a.name < b.name;
      });
    t.sorted = true;
  }
  auto it = t.byOp.find(opName);
  return it == t.byOp.end() ? kNoPatterns : it->second;
}

bool canonicalizeModule(Module &m, Diagnostics &diags) {
  (void)diags;
  return run(m, nullptr);
}

bool canonicalizeModule(Module &m, Diagnostics &diags, const std::set<std::string, std::less<>> &enabled) {
  (void)diags;
  return run(m, &enabled);
}

namespace {

PassRegistration canonicalizeReg("canonicalize",
                                 "Apply Shardy's canonicalization patterns and erase dead side-effect-free ops",
                                 [](Module &m, const PassOptions &o, Diagnostics &diags) {
                                   auto it = o.values.find("enable-patterns");
                                   if (it == o.values.end()) return canonicalizeModule(m, diags);
                                   // A comma-separated list of pattern names or labels.
                                   std::set<std::string, std::less<>> enabled;
                                   std::string item;
                                   for (char c : it->second + ",") {
                                     if (c != ',') {
                                       item += c;
                                     } else if (!item.empty()) {
                                       enabled.insert(item);
                                       item.clear();
                                     }
                                   }
                                   // autopart-opt's reader splits `enable-patterns=a,b` at the
                                   // comma: `b` arrives as a bare word.
                                   for (const auto &[key, value] : o.values)
                                     if (key != "enable-patterns" && value.empty()) enabled.insert(key);
                                   return canonicalizeModule(m, diags, enabled);
                                 },
                                 {{"enable-patterns", "list",
                                   "run only these patterns (names or labels, comma-separated; default: all)"}});

}  // namespace

}  // namespace autopart::canonicalize
