#include "sim/Kernels.h"

#include <algorithm>

#include "rules/OpInfo.h"
#include "support/Csr.h"

namespace autopart {

const char *kernelKindName(KernelKind kind) {
  switch (kind) {
  case KernelKind::Loop: return "loop";
  case KernelKind::Input: return "input";
  case KernelKind::Library: return "library";
  case KernelKind::InPlace: return "in-place";
  case KernelKind::Other: return "other";
  case KernelKind::Bitcast: return "bitcast";
  }
  return "?";
}

namespace {

// Layout changes and casts a GEMM reads directly (XLA folds transposes into
// the dot's dimension numbers, reshapes are bitcasts, cuBLASLt / Triton and
// the MXU take converts and broadcasts of their operands).
bool isGemmOperandFusible(std::string_view name) {
  return name == "stablehlo.transpose" || name == "stablehlo.reshape" || name == "stablehlo.convert" ||
         name == "stablehlo.broadcast_in_dim";
}

// Ops priced as kernels (the rest are free: constants, control flow, tuples,
// annotations, reshards whose collectives the simulator prices apart).
bool isPriced(const OpInfo &info) { return info.cost == CostKind::Compute && !isDataFlowKind(info); }

class KernelFormer {
public:
  KernelFormer(const Module &m, std::span<const OpId> siteOps, bool fuse) : m_(m), siteOps_(siteOps), fuse_(fuse) {
    infos_.reserve(siteOps.size());
    for (OpId op : siteOps) infos_.push_back(&opInfo(m, op));
    indexUsers();
    siteOfOp_.assign(m.ops.size(), kNoSite);
    kernelAtRoot_.assign(siteOps.size(), kNoSite);
    fused_.assign(siteOps.size(), 0);
    treeSize_.assign(siteOps.size(), 1);
    gemmSide_.assign(siteOps.size(), 0);
  }

  void formBlock(const std::vector<uint32_t> &sites) {
    for (uint32_t s : sites) siteOfOp_[siteOps_[s]] = s;
    // Users come after their producers in a block: deciding in reverse order
    // sees every user's decision first.
    for (size_t i = sites.size(); i-- > 0;) decideFusible(sites[i]);
    // Duplicating a producer into several consumers repeats its whole fused
    // tree; like priority fusion's cost check, only small trees are
    // duplicated (decided forwards: a tree's size needs its producers').
    for (uint32_t s : sites) decideDuplication(s);
    size_t firstKernel = kernels_.size();
    for (uint32_t s : sites)
      if (isRoot(s)) buildKernel(s);
    if (fuse_)
      for (uint32_t s : sites)
        if (infos_[s]->fusion == Fusion::Library) fuseEpilogue(s, firstKernel);
    for (uint32_t s : sites) siteOfOp_[siteOps_[s]] = kNoSite;
  }

  KernelPlan finish(size_t numSites) {
    KernelPlan plan;
    std::vector<uint32_t> order;
    for (uint32_t k = 0; k < kernels_.size(); ++k)
      if (!dead_[k]) order.push_back(k);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return kernels_[a].root < kernels_[b].root; });
    for (uint32_t k : order) plan.kernels.push_back(std::move(kernels_[k]));
    plan.memberships = buildCsr(numSites, [&](auto &&emit) {
      for (uint32_t k = 0; k < plan.kernels.size(); ++k)
        for (uint32_t s : plan.kernels[k].members) emit(s, k);
    });
    plan.owner.assign(numSites, KernelPlan::kNoKernel);
    for (size_t s = 0; s < numSites; ++s)
      if (!plan.memberships.row(s).empty()) plan.owner[s] = plan.memberships.row(s)[0];
    return plan;
  }

private:
  static constexpr uint32_t kNoSite = ~0u;

  // Users of each value among the simulated ops, once per op (CSR).
  void indexUsers() {
    std::vector<OpId> ops(siteOps_.begin(), siteOps_.end());
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    // An op reading a value twice (x * x) is one user of it: counting it
    // twice would make a producer with one consumer look shared (no
    // duplication of a large tree, no GEMM epilogue).
    users_ = buildCsr(m_.values.size(), [&](auto &&emit) {
      for (OpId op : ops) {
        std::span<const ValueId> vs = m_.operands(op);
        for (size_t i = 0; i < vs.size(); ++i)
          if (std::find(vs.begin(), vs.begin() + i, vs[i]) == vs.begin() + i) emit(vs[i], op);
      }
    });
  }

  std::span<const OpId> users(ValueId v) const { return users_.row(v); }

  // Whether `user` can take `producer` into its kernel. A GEMM reads layout
  // changes of its operands, and so does a layout op that a GEMM reads: an
  // elementwise producer of a GEMM operand is a kernel of its own.
  bool absorbs(OpId user, OpId producer) const {
    if (m_.ops[user].parent != m_.ops[producer].parent) return false;
    uint32_t us = siteOfOp_[user];
    if (us == kNoSite) return false;
    const OpInfo &u = *infos_[us];
    if (!isPriced(u)) return false;
    switch (u.fusion) {
    case Fusion::Loop:
      return !gemmSide_[us] || isGemmOperandFusible(m_.opName(producer));
    case Fusion::Input:
    case Fusion::InPlace:
      return true;
    case Fusion::Library:
      return isGemmOperandFusible(m_.opName(producer));
    case Fusion::None:
      return false;
    }
    return false;
  }

  void decideDuplication(uint32_t site) {
    OpId op = siteOps_[site];
    uint32_t size = 1;
    for (ValueId v : m_.operands(op)) {
      OpId p = m_.definingOp(v);
      uint32_t ps = p == kNone ? kNoSite : siteOfOp_[p];
      if (ps != kNoSite && fused_[ps]) size += treeSize_[ps];
    }
    treeSize_[site] = size;
    if (fused_[site] && users(m_.result(op)).size() > 1 && size > kMaxDuplicatedTree) fused_[site] = 0;
  }

  void decideFusible(uint32_t site) {
    fused_[site] = 0;
    gemmSide_[site] = 0;
    if (!fuse_ || infos_[site]->fusion != Fusion::Loop) return;
    OpId op = siteOps_[site];
    if (m_.numResults(op) != 1) return;
    std::span<const OpId> us = users(m_.result(op));
    if (us.empty() || !std::all_of(us.begin(), us.end(), [&](OpId u) { return absorbs(u, op); })) return;
    fused_[site] = 1;
    gemmSide_[site] = std::all_of(us.begin(), us.end(), [&](OpId u) {
      uint32_t s = siteOfOp_[u];
      return infos_[s]->fusion == Fusion::Library || gemmSide_[s];
    });
  }

  // A loop-fusible op whose every user takes it in: it never reaches HBM.
  bool isFused(uint32_t site) const { return fused_[site]; }

  bool isRoot(uint32_t site) const { return isPriced(*infos_[site]) && !isFused(site); }

  static KernelKind kindOf(Fusion f) {
    switch (f) {
    case Fusion::Loop: return KernelKind::Loop;
    case Fusion::Input: return KernelKind::Input;
    case Fusion::Library: return KernelKind::Library;
    case Fusion::InPlace: return KernelKind::InPlace;
    case Fusion::None: return KernelKind::Other;
    }
    return KernelKind::Other;
  }

  // `readValues` is parallel to `k.reads`. A value is read whole once; each
  // slice of it is read apart (two halves of a split are both read) unless
  // the kernel also reads it whole, whichever member it meets first.
  void addRead(Kernel &k, std::vector<ValueId> &readValues, uint32_t site, uint32_t operand) {
    ValueId v = m_.operand(siteOps_[site], operand);
    std::string_view name = m_.opName(siteOps_[site]);
    bool sliced = operand == 0 && (name == "stablehlo.gather" || name == "stablehlo.slice" ||
                                   name == "stablehlo.dynamic_slice" || name == "stablehlo.dynamic_gather");
    for (size_t i = 0; i < readValues.size(); ++i)
      if (readValues[i] == v && !k.reads[i].sliced) return;  // already read whole
    if (!sliced)
      for (size_t i = readValues.size(); i-- > 0;)
        if (readValues[i] == v) {  // slices of it: the whole read covers them
          readValues.erase(readValues.begin() + std::ptrdiff_t(i));
          k.reads.erase(k.reads.begin() + std::ptrdiff_t(i));
        }
    readValues.push_back(v);
    k.reads.push_back({site, operand, sliced});
  }

  void buildKernel(uint32_t root) {
    Kernel k;
    k.root = root;
    k.kind = kindOf(infos_[root]->fusion);
    OpId rootOp = siteOps_[root];
    bool inPlace = fuse_ && k.kind == KernelKind::InPlace && m_.numOperands(rootOp) >= 2;
    if (!fuse_ && k.kind != KernelKind::Other) k.kind = KernelKind::Loop;
    if (inPlace) k.writtenOperand = m_.isa(rootOp, "stablehlo.scatter") ? int32_t(m_.numOperands(rootOp) - 1) : 1;
    std::vector<ValueId> readValues;
    std::vector<uint32_t> stack{root};
    k.members.push_back(root);
    while (!stack.empty()) {
      uint32_t s = stack.back();
      stack.pop_back();
      OpId op = siteOps_[s];
      for (uint32_t i = 0; i < m_.numOperands(op); ++i) {
        // An in-place update aliases its buffer: it neither reads it nor
        // fuses its producer.
        if (inPlace && s == root && i == 0) continue;
        ValueId v = m_.operand(op, i);
        OpId p = m_.definingOp(v);
        uint32_t ps = p == kNone ? kNoSite : siteOfOp_[p];
        if (ps != kNoSite && isFused(ps)) {
          if (std::find(k.members.begin(), k.members.end(), ps) == k.members.end()) {
            k.members.push_back(ps);
            stack.push_back(ps);
          }
          continue;
        }
        addRead(k, readValues, s, i);
      }
    }
    std::sort(k.members.begin(), k.members.end());
    if (fuse_ && k.members.size() == 1 && m_.isa(rootOp, "stablehlo.reshape")) k.kind = KernelKind::Bitcast;
    kernelAtRoot_[root] = uint32_t(kernels_.size());
    kernels_.push_back(std::move(k));
    dead_.push_back(false);
  }


  // A GEMM whose result only elementwise ops read, all in one loop kernel
  // and with only elementwise ops between them and its root, takes that
  // kernel as its epilogue (one GEMM per kernel). The consumers may share
  // the result among themselves: bias + GELU reads h + b several times
  // (h·h, h·0.5, h + k·h³), all fused into the one kernel that writes the
  // activation.
  void fuseEpilogue(uint32_t dotSite, size_t firstKernel) {
    OpId dot = siteOps_[dotSite];
    if (m_.numResults(dot) != 1) return;
    uint32_t kd = kernelAtRoot_[dotSite];
    if (kd == kNoSite || dead_[kd]) return;
    ValueId v = m_.result(dot);
    std::span<const OpId> us = users(v);
    if (us.empty()) return;
    for (OpId u : us) {
      uint32_t s = m_.ops[u].parent == m_.ops[dot].parent ? siteOfOp_[u] : kNoSite;
      if (s == kNoSite || infos_[s]->category != OpCategory::Elementwise || !isPriced(*infos_[s])) return;
    }
    // The kernels of this block that read the result: exactly one, a loop
    // fusion (a consumer duplicated into two kernels, or one the GEMM's
    // result must reach HBM for, keeps the GEMM apart).
    uint32_t ku = kNoSite;
    for (size_t k = firstKernel; k < kernels_.size(); ++k) {
      if (dead_[k] || k == kd) continue;
      const Kernel &c = kernels_[k];
      if (std::none_of(c.reads.begin(), c.reads.end(),
                       [&](const KernelRead &r) { return m_.operand(siteOps_[r.site], r.operand) == v; }))
        continue;
      if (ku != kNoSite) return;
      ku = uint32_t(k);
    }
    if (ku == kNoSite || kernels_[ku].kind != KernelKind::Loop) return;
    // Every member downstream of the result is elementwise (members are in
    // program order, so producers come first).
    std::vector<ValueId> downstream{v};
    for (uint32_t s : kernels_[ku].members) {
      OpId op = siteOps_[s];
      std::span<const ValueId> ops = m_.operands(op);
      if (std::none_of(ops.begin(), ops.end(), [&](ValueId o) {
            return std::find(downstream.begin(), downstream.end(), o) != downstream.end();
          }))
        continue;
      if (infos_[s]->category != OpCategory::Elementwise) return;
      for (uint32_t r = 0; r < m_.numResults(op); ++r) downstream.push_back(m_.result(op, r));
    }
    Kernel &epi = kernels_[ku];
    Kernel &gemm = kernels_[kd];
    std::vector<ValueId> readValues;
    std::vector<KernelRead> reads;
    for (const KernelRead &r : epi.reads) {
      ValueId rv = m_.operand(siteOps_[r.site], r.operand);
      if (rv == v) continue;  // now internal
      readValues.push_back(rv);
      reads.push_back(r);
    }
    epi.reads = std::move(reads);
    for (const KernelRead &r : gemm.reads) addRead(epi, readValues, r.site, r.operand);
    epi.members.insert(epi.members.end(), gemm.members.begin(), gemm.members.end());
    std::sort(epi.members.begin(), epi.members.end());
    epi.members.erase(std::unique(epi.members.begin(), epi.members.end()), epi.members.end());
    epi.kind = KernelKind::Library;
    dead_[kd] = true;
  }

  const Module &m_;
  std::span<const OpId> siteOps_;
  bool fuse_;
  std::vector<const OpInfo *> infos_;
  Csr users_;  // per value: the ops that use it
  std::vector<uint32_t> siteOfOp_;
  std::vector<Kernel> kernels_;
  std::vector<bool> dead_;
  std::vector<uint32_t> kernelAtRoot_;
  // Per site: fused into its users; fused on the operand side of a GEMM.
  std::vector<char> fused_, gemmSide_;
  std::vector<uint32_t> treeSize_;  // ops in the site's fused subtree
  static constexpr uint32_t kMaxDuplicatedTree = 4;  // per site: the kernel it is the root of
};

}  // namespace

KernelPlan formKernels(const Module &m, std::span<const OpId> siteOps,
                       std::span<const std::vector<uint32_t>> blockSites, bool fuse) {
  KernelFormer former(m, siteOps, fuse);
  for (const std::vector<uint32_t> &sites : blockSites) former.formBlock(sites);
  return former.finish(siteOps.size());
}

}  // namespace autopart
