#include "export/ExportShardings.h"

#include <map>

#include "export/GspmdSharding.h"
#include "ir/ValueSharding.h"

namespace autopart {

namespace {

class Exporter {
public:
  Exporter(Module &m, const ExportOptions &opts) : m_(m), opts_(opts) {
    if (m.top == kNone) return;
    for (BlockId b : m.regions[m.region(m.top, 0)].blocks)
      for (OpId op : m.blocks[b].ops) {
        if (!m.isa(op, "sdy.mesh")) continue;
        AttrId name = m.attr(op, "sym_name"), mesh = m.attr(op, "mesh");
        if (name != kNoAttr && mesh != kNoAttr && m.attrs.kind(mesh) == AttrKind::Mesh) {
          meshes_[std::string(m.attrs.stringValue(name))] = *m.attrs.get(mesh).mesh;
          meshOps_.push_back(op);
        }
      }
    // A function called inside a manual computation runs in its manual
    // context (and so do the functions it calls): its shardings carry the
    // manual axes too, as XLA writes them.
    std::vector<OpId> calls;
    for (OpId func : m.functions())
      m.walk(func, [&](OpId op) {
        if (m.isa(op, "func.call")) calls.push_back(op);
      });
    for (bool changed = true; changed;) {
      changed = false;
      for (OpId call : calls) {
        OpId callee = m.lookupFunc(m.attr(call, "callee"));
        if (callee == kNone || funcManual_.count(callee)) continue;
        std::vector<std::string> axes = manualAxesAround(call);
        if (axes.empty()) continue;
        funcManual_[callee] = std::move(axes);
        changed = true;
      }
    }
  }

  bool run(Diagnostics &diags);

private:
  // The GSPMD string of `s`, or empty after fail().
  std::string convert(const TensorSharding &s, OpId at, OpId scope);
  // The manual axes of the manual computations around `op` (not `op`
  // itself), and those its function is called under.
  std::vector<std::string> manualAxesAround(OpId op) const;
  AttrId stringAttr(const std::string &g) { return m_.attrs.string(escapeGspmd(g)); }
  bool convertFunction(OpId func);
  bool convertOp(OpId op);

  Module &m_;
  ExportOptions opts_;
  std::map<std::string, Mesh> meshes_;
  std::vector<OpId> meshOps_;
  std::map<OpId, std::vector<std::string>> funcManual_;
  void fail(OpId op, std::string message) {
    failedAt_ = op;
    failure_ = std::move(message);
  }
  OpId failedAt_ = kNone;
  std::string failure_;
};

std::vector<std::string> Exporter::manualAxesAround(OpId op) const {
  std::vector<std::string> axes;
  OpId p = op;
  for (; p != kNone && !m_.isa(p, "func.func"); p = m_.parentOp(p)) {
    if (p == op || !m_.isa(p, "sdy.manual_computation")) continue;
    std::vector<std::string> manual = manualAxesOf(m_, p);
    axes.insert(axes.end(), manual.begin(), manual.end());
  }
  if (auto it = funcManual_.find(p); p != kNone && it != funcManual_.end())
    axes.insert(axes.end(), it->second.begin(), it->second.end());
  return axes;
}

std::string Exporter::convert(const TensorSharding &s, OpId at, OpId scope) {
  const Mesh *mesh = s.inlineMesh ? &*s.inlineMesh : nullptr;
  if (!mesh) {
    auto it = meshes_.find(s.meshName);
    if (it == meshes_.end()) {
      fail(at, "sharding refers to unknown mesh @" + s.meshName);
      return "";
    }
    mesh = &it->second;
  }
  std::string why;
  GspmdOptions gopts;
  gopts.v3 = opts_.v3;
  gopts.manualAxes = manualAxesAround(scope);
  std::string g = gspmdSharding(s, *mesh, &why, gopts);
  if (g.empty()) fail(at, s.str() + " has no GSPMD form: " + why);
  return g;
}

bool Exporter::convertFunction(OpId func) {
  MutableFuncView f{m_, func};
  for (size_t i = 0; i < f.args().size(); ++i) {
    AttrId a = f.argAttr(i, "sdy.sharding");
    if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::Sharding) continue;
    if (opts_.onlyExisting && f.argAttr(i, "mhlo.sharding") == kNoAttr) continue;
    std::string g = convert(*m_.attrs.get(a).sharding, func, func);
    if (g.empty()) return false;
    f.setArgAttr(i, "mhlo.sharding", stringAttr(g));
    if (!opts_.keepSdy) f.removeArgAttr(i, "sdy.sharding");
  }
  for (size_t i = 0; i < f.numResults(); ++i) {
    AttrId a = f.resultAttr(i, "sdy.sharding");
    if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::Sharding) continue;
    if (opts_.onlyExisting && f.resultAttr(i, "mhlo.sharding") == kNoAttr) continue;
    std::string g = convert(*m_.attrs.get(a).sharding, func, func);
    if (g.empty()) return false;
    f.setResultAttr(i, "mhlo.sharding", stringAttr(g));
    if (!opts_.keepSdy) f.removeResultAttr(i, "sdy.sharding");
  }
  std::vector<OpId> ops;
  m_.walk(func, [&](OpId op) { ops.push_back(op); });
  for (OpId op : ops)
    if (!convertOp(op)) return false;
  return true;
}

bool Exporter::convertOp(OpId op) {
  std::string_view name = m_.opName(op);
  bool collective = name == "sdy.reshard" || name == "sdy.all_gather" || name == "sdy.all_slice" ||
                    name == "sdy.all_to_all" || name == "sdy.collective_permute" || name == "sdy.reduce_scatter";
  if (collective) {
    if (opts_.keepSdy) return true;
    AttrId a = m_.attr(op, name == "sdy.reshard" ? "sharding" : "out_sharding");
    if (a == kNoAttr || m_.attrs.kind(a) != AttrKind::Sharding || m_.numOperands(op) != 1 || m_.numResults(op) != 1) {
      fail(op, std::string(name) + " without a target sharding");
      return false;
    }
    std::string g = convert(*m_.attrs.get(a).sharding, op, op);
    if (g.empty()) return false;
    // The partitioner inserts the collectives itself; it only needs the
    // value copied into its new sharding.
    ValueId in = m_.operand(op, 0), out = m_.result(op);
    OpId copy = m_.createOp("mhlo.copy", {in}, {m_.type(out)}, {{m_.names.get("mhlo.sharding"), stringAttr(g)}});
    m_.ops[copy].loc = m_.ops[op].loc;
    m_.ops[copy].srcOffset = m_.ops[op].srcOffset;
    m_.insertOp(m_.ops[op].parent, copy, op);
    m_.replaceAllUsesWith(out, m_.result(copy), m_.enclosingFunc(op));
    m_.eraseOp(op);
    return true;
  }
  AttrId a = m_.attr(op, "sdy.sharding");
  if (a == kNoAttr) return true;
  if (opts_.onlyExisting && !m_.hasAttr(op, "mhlo.sharding")) return true;
  const AttrStorage &s = m_.attrs.get(a);
  std::string g;
  if (s.kind == AttrKind::Sharding) {
    g = convert(*s.sharding, op, op);
    if (g.empty()) return false;
  } else if (s.kind == AttrKind::ShardingPerValue) {
    std::vector<std::string> parts;
    std::vector<TensorSharding> shardings = s.shardings;  // `s` may move as attrs are added
    for (const TensorSharding &t : shardings) {
      parts.push_back(convert(t, op, op));
      if (parts.back().empty()) return false;
    }
    g = parts.size() == 1 ? parts[0] : gspmdTuple(parts);
  } else {
    return true;
  }
  m_.setAttr(op, "mhlo.sharding", stringAttr(g));
  if (!opts_.keepSdy) m_.removeAttr(op, "sdy.sharding");
  return true;
}

bool Exporter::run(Diagnostics &diags) {
  for (OpId func : m_.functions())
    if (!convertFunction(func)) {
      diags.error(m_, failedAt_, failure_);
      return false;
    }
  if (!opts_.keepSdy)
    for (OpId op : meshOps_) m_.eraseOp(op);
  return true;
}

}  // namespace

bool exportGspmdShardings(Module &m, const ExportOptions &opts, Diagnostics &diags) {
  return Exporter(m, opts).run(diags);
}

}  // namespace autopart
