#include "export/CollectivePlanner.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <list>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace autopart {

namespace {

// Axes of one dimension while planning: a list, since axes are taken from
// and put back at both ends and in the middle.
using Seq = std::list<AxisRef>;

// Identity order on (sub-)axes, for sets and maps. Once axes are aligned,
// two refs naming the same devices are equal field by field.
struct AxisLess {
  bool operator()(const AxisRef &a, const AxisRef &b) const {
    if (a.name != b.name) return a.name < b.name;
    if (axisStart(a) != axisStart(b)) return axisStart(a) < axisStart(b);
    return a.subSize < b.subSize;
  }
};

struct DimIndex {
  int64_t dim;
  int64_t index;
};

bool dividesEitherWay(int64_t a, int64_t b) { return a % b == 0 || b % a == 0; }

// The parts of `a` before, inside and after `b` (same axis, overlapping).
std::optional<AxisRef> partBefore(const AxisRef &a, const AxisRef &b, const Mesh &mesh) {
  if (axisStart(a) >= axisStart(b)) return std::nullopt;
  return makeAxis(a.name, axisStart(a), axisStart(b) / axisStart(a), mesh);
}

AxisRef partInside(const AxisRef &a, const AxisRef &b, const Mesh &mesh) {
  int64_t start = std::max(axisStart(a), axisStart(b));
  int64_t end = std::min(axisEnd(a, mesh), axisEnd(b, mesh));
  return makeAxis(a.name, start, end / start, mesh);
}

std::optional<AxisRef> partAfter(const AxisRef &a, const AxisRef &b, const Mesh &mesh) {
  int64_t endA = axisEnd(a, mesh), endB = axisEnd(b, mesh);
  if (endB >= endA) return std::nullopt;
  return makeAxis(a.name, endB, endA / endB, mesh);
}

// Splits every axis of `axes` that partly overlaps one of `sortedOthers`
// into the pieces before, inside and after it, so that afterwards two axes of
// the two sides either are equal or do not overlap.
void alignTo(Seq &axes, const AxisList &sortedOthers, const Mesh &mesh) {
  auto it = axes.begin();
  while (it != axes.end()) {
    AxisRef axis = *it;
    size_t o = 0;
    while (o < sortedOthers.size() && !sortedOthers[o].overlaps(axis, mesh)) ++o;
    bool movedPast = false;
    while (o < sortedOthers.size() && canCoexist(sortedOthers[o], axis, mesh) &&
           !axisContains(sortedOthers[o], axis, mesh) && sortedOthers[o].overlaps(axis, mesh)) {
      const AxisRef &other = sortedOthers[o];
      it = axes.erase(it);
      if (std::optional<AxisRef> before = partBefore(axis, other, mesh)) axes.insert(it, *before);
      axes.insert(it, partInside(axis, other, mesh));
      std::optional<AxisRef> after = partAfter(axis, other, mesh);
      if (!after) {
        movedPast = true;
        break;
      }
      // The rest of the axis may overlap the next of `sortedOthers`.
      it = axes.insert(it, *after);
      axis = *after;
      ++o;
    }
    if (!movedPast) ++it;
  }
}

AxisList sortedAxes(const std::vector<Seq> &perDim) {
  AxisList all;
  for (const Seq &d : perDim) all.insert(all.end(), d.begin(), d.end());
  std::sort(all.begin(), all.end(), AxisLess());
  return all;
}

void alignTo(std::vector<Seq> &perDim, const AxisList &sortedOthers, const Mesh &mesh) {
  if (sortedOthers.empty()) return;
  for (Seq &d : perDim) alignTo(d, sortedOthers, mesh);
}

template <class Axes>
int64_t productOf(const Axes &axes, const Mesh &mesh) {
  int64_t n = 1;
  for (const AxisRef &a : axes) n *= a.size(mesh);
  return n;
}

// The part of `axis` that fits in `capacity` (a factor of it), and the rest
// when only a major part fits; divides `capacity` by what was taken.
struct Fit {
  std::optional<AxisRef> taken;
  std::optional<AxisRef> rest;
};

Fit fitIn(const AxisRef &axis, int64_t &capacity, const Mesh &mesh) {
  int64_t size = axis.size(mesh);
  if (capacity <= 1 || !dividesEitherWay(size, capacity)) return {};
  if (capacity >= size) {
    capacity /= size;
    return {axis, std::nullopt};
  }
  AxisRef taken = makeAxis(axis.name, axisStart(axis), capacity, mesh);
  AxisRef rest = makeAxis(axis.name, axisEnd(taken, mesh), size / capacity, mesh);
  capacity = 1;
  return {taken, rest};
}

class Planner {
public:
  Planner(const Mesh &mesh, const std::vector<int64_t> &shape, const std::vector<AxisList> &from,
          const std::vector<AxisList> &to, bool deviceOrderChanges)
      : mesh_(mesh), shape_(shape), onTargetMesh_(!deviceOrderChanges), capacity_(from.size(), 1) {
    for (size_t d = 0; d < from.size(); ++d) {
      in_.emplace_back(from[d].begin(), from[d].end());
      out_.emplace_back(to[d].begin(), to[d].end());
      current_.push_back(from[d]);
    }
    AxisList sortedIn = sortedAxes(in_), sortedOut = sortedAxes(out_);
    alignTo(in_, sortedOut, mesh_);
    alignTo(out_, sortedIn, mesh_);
    // Axes already in place stay untouched by every collective.
    for (size_t d = 0; d < in_.size(); ++d)
      while (!in_[d].empty() && !out_[d].empty() && in_[d].front() == out_[d].front()) {
        in_[d].pop_front();
        out_[d].pop_front();
      }
    for (const Seq &d : in_) inSet_.insert(d.begin(), d.end());
    indexOut();
  }

  CollectivePlan run() {
    // With power-of-two axes one round always finishes; sizes that do not
    // divide each other may need a second.
    for (int round = 0; round < 2 && !done(); ++round) {
      trySlice();
      tryPermute();
      tryAllToAlls(/*anyPlace=*/false);
      tryAllToAlls(/*anyPlace=*/true);
      tryGather();
    }
    plan_.reached = done();
    return std::move(plan_);
  }

private:
  int64_t rank() const { return int64_t(in_.size()); }

  bool done() const {
    auto empty = [](const Seq &s) { return s.empty(); };
    return onTargetMesh_ && std::all_of(in_.begin(), in_.end(), empty) &&
           std::all_of(out_.begin(), out_.end(), empty);
  }

  void indexOut() {
    outPos_.clear();
    for (int64_t d = 0; d < rank(); ++d) {
      int64_t i = 0;
      for (const AxisRef &a : out_[d]) outPos_.emplace(a, DimIndex{d, i++});
    }
  }

  std::optional<DimIndex> outPosOf(const AxisRef &a) const {
    auto it = outPos_.find(a);
    return it == outPos_.end() ? std::nullopt : std::optional<DimIndex>(it->second);
  }

  void emit(CollectiveStep step) {
    step.result = current_;
    step.onTargetMesh = onTargetMesh_;
    plan_.steps.push_back(std::move(step));
  }

  // Removes the axes of `from` from `first` to its end off the back of
  // `current` (which may hold them merged into bigger sub-axes).
  void popFromCurrent(AxisList &current, const Seq &from, Seq::const_iterator first) {
    for (auto it = from.end(); it != first;) {
      --it;
      if (current.empty()) return;
      std::optional<AxisRef> kept = prefixWithoutOverlap(current.back(), {*it}, mesh_);
      if (kept && !(*kept == current.back()))
        current.back() = *kept;
      else
        current.pop_back();
    }
  }

  // Puts axes from `available(d)` into `in_[d]` (front or back) while dim d
  // has capacity, splitting an axis bigger than what is left; `onAdd` sees
  // every axis added.
  void distribute(bool toFront, const std::function<Seq &(int64_t)> &available,
                  const std::function<void(const AxisRef &, int64_t)> &onAdd) {
    AxisList split;
    for (int64_t d = 0; d < rank(); ++d) {
      Seq &in = in_[d];
      auto at = toFront ? in.begin() : in.end();
      Seq &avail = available(d);
      for (auto it = avail.begin(); it != avail.end() && capacity_[d] > 1;) {
        Fit fit = fitIn(*it, capacity_[d], mesh_);
        if (!fit.taken) {
          ++it;
          continue;
        }
        it = avail.erase(it);
        in.insert(at, *fit.taken);
        inSet_.insert(*fit.taken);
        onAdd(*fit.taken, d);
        if (fit.rest) {
          split.push_back(*fit.taken);
          avail.push_front(*fit.rest);
        }
      }
    }
    // A split axis must be split the same way where the target lists it.
    std::sort(split.begin(), split.end(), AxisLess());
    alignTo(out_, split, mesh_);
  }

  void distribute(Seq &available, bool toFront,
                  const std::function<void(const AxisRef &, int64_t)> &onAdd = nullptr) {
    distribute(
        toFront, [&](int64_t) -> Seq & { return available; },
        [&](const AxisRef &a, int64_t d) {
          if (onAdd) onAdd(a, d);
        });
  }

  // --- all-gather -------------------------------------------------------------

  void tryGather() {
    CollectiveStep step;
    step.kind = CollectiveStep::Kind::AllGather;
    bool any = false;
    for (int64_t d = 0; d < rank(); ++d) {
      Seq &in = in_[d];
      AxisList gathered;
      // The suffix of axes the target does not use anywhere.
      auto first = in.end();
      while (first != in.begin() && !outPos_.count(*std::prev(first))) {
        --first;
        inSet_.erase(*first);
      }
      popFromCurrent(current_[d], in, first);
      while (first != in.end()) {
        appendOrMerge(gathered, *first, mesh_);
        first = in.erase(first);
      }
      any |= !gathered.empty();
      step.perDim.push_back(std::move(gathered));
    }
    if (any) emit(std::move(step));
  }

  // --- all-slice --------------------------------------------------------------

  struct SliceRange {
    Seq::iterator begin, end;
  };

  // Slicing on a source dimension the target axes that follow its axes in
  // another dimension, so one all-to-all moves them all into place (rather
  // than slicing there and permuting). Borrows the target's capacity.
  std::optional<SliceRange> sliceForAllToAll(int64_t src) {
    Seq &srcIn = in_[src];
    if (srcIn.empty() || !out_[src].empty()) return std::nullopt;
    std::optional<DimIndex> pos = outPosOf(srcIn.back());
    if (!pos) return std::nullopt;
    int64_t tgt = pos->dim;
    if (!in_[tgt].empty()) return std::nullopt;
    Seq &tgtOut = out_[tgt];
    auto start = std::find(tgtOut.begin(), tgtOut.end(), srcIn.back());
    if (start == tgtOut.end()) return std::nullopt;
    ++start;
    if (start == tgtOut.end() || inSet_.count(*start)) return std::nullopt;

    // The suffix of the source axes already in target order before `start`.
    auto inIt = srcIn.end();
    auto outIt = start;
    int64_t common = 1;
    while (inIt != srcIn.begin() && outIt != tgtOut.begin() && *std::prev(inIt) == *std::prev(outIt)) {
      --inIt;
      --outIt;
      common *= inIt->size(mesh_);
    }
    for (auto it = srcIn.begin(); it != inIt; ++it) {
      std::optional<DimIndex> p = outPosOf(*it);
      if (p && p->dim == tgt) return std::nullopt;  // out of order: needs a permute
    }
    auto end = start;
    int64_t added = 1;
    while (end != tgtOut.end() && !inSet_.count(*end)) added *= (end++)->size(mesh_);
    if (shape_[src] % (productOf(current_[src], mesh_) * added) != 0) return std::nullopt;
    capacity_[tgt] /= common * added;
    return SliceRange{start, end};
  }

  void trySlice() {
    std::vector<AxisList> slicing(rank());
    bool any = false;
    for (int64_t d = 0; d < rank(); ++d) {
      int64_t inSize = productOf(in_[d], mesh_), outSize = productOf(out_[d], mesh_);
      capacity_[d] = outSize / std::gcd(inSize, outSize);
    }
    // 1. Axes sliced on a source dimension for a later all-to-all.
    for (int64_t src = 0; src < rank(); ++src) {
      std::optional<SliceRange> range = sliceForAllToAll(src);
      if (!range) continue;
      any = true;
      for (auto it = range->begin; it != range->end; ++it) {
        in_[src].push_back(*it);
        inSet_.insert(*it);
        appendOrMerge(slicing[src], *it, mesh_);
        appendOrMerge(current_[src], *it, mesh_);
      }
    }
    // 2. Free target axes sliced on their own dimension, within capacity.
    Seq leftover;
    for (int64_t d = 0; d < rank(); ++d) {
      Seq &out = out_[d];
      for (auto it = out.begin(); it != out.end();) {
        if (inSet_.count(*it)) {
          ++it;
          continue;
        }
        Fit fit = fitIn(*it, capacity_[d], mesh_);
        if (!fit.taken) {
          leftover.push_back(*it++);
          continue;
        }
        any = true;
        appendOrMerge(slicing[d], *fit.taken, mesh_);
        appendOrMerge(current_[d], *fit.taken, mesh_);
        if (in_[d].empty() && it == out.begin()) {
          it = out.erase(it);  // in its final place
        } else {
          inSet_.insert(*fit.taken);
          in_[d].push_back(*fit.taken);
          *it = *fit.taken;
          ++it;
        }
        if (fit.rest) {
          out.insert(it, *fit.rest);
          leftover.push_back(*fit.rest);
        }
      }
    }
    // 3. The rest on the first dimension with capacity left.
    distribute(leftover, /*toFront=*/false, [&](const AxisRef &a, int64_t d) {
      any = true;
      appendOrMerge(slicing[d], a, mesh_);
      appendOrMerge(current_[d], a, mesh_);
    });
    indexOut();
    if (!any) return;
    CollectiveStep step;
    step.kind = CollectiveStep::Kind::AllSlice;
    step.perDim = std::move(slicing);
    emit(std::move(step));
  }

  // --- collective-permute -----------------------------------------------------

  // Whether swapping axes in place helps: a dimension's first axes to remove
  // and add divide each other; axes headed for one dimension sit out of
  // order or apart; an axis to drop sits behind one to move; or some axis to
  // drop and some to add divide each other.
  bool shouldPermute() const {
    std::optional<AxisRef> freeOut, freeIn;
    for (int64_t d = 0; d < rank(); ++d) {
      const Seq &in = in_[d], &out = out_[d];
      if (!in.empty() && !out.empty() && dividesEitherWay(in.front().size(mesh_), out.front().size(mesh_)))
        return true;
      for (const AxisRef &a : out)
        if (!inSet_.count(a)) freeOut = a;
      std::optional<int64_t> lastDim;
      int64_t lastIndex = 0;
      std::vector<bool> seen(rank(), false);
      for (const AxisRef &a : in) {
        std::optional<int64_t> curDim;
        if (std::optional<DimIndex> p = outPosOf(a)) {
          curDim = p->dim;
          if ((p->dim == d || seen[p->dim]) && (lastDim != curDim || p->index != lastIndex + 1)) return true;
          seen[p->dim] = true;
          lastIndex = p->index;
        } else if (lastDim && out.empty()) {
          return true;
        } else {
          freeIn = a;
        }
        lastDim = curDim;
      }
    }
    return freeOut && freeIn && dividesEitherWay(freeOut->size(mesh_), freeIn->size(mesh_));
  }

  void permute() {
    Seq freeOut;
    std::vector<Seq> freeIn(rank());
    inSet_.clear();
    // 1. Target axes go straight to their place, within each dimension's
    // current split.
    for (int64_t d = 0; d < rank(); ++d) {
      Seq &in = in_[d], &out = out_[d];
      capacity_[d] = productOf(in, mesh_);
      int64_t used = capacity_[d];
      popFromCurrent(current_[d], in, in.begin());
      while (capacity_[d] > 1 && !out.empty()) {
        Fit fit = fitIn(out.front(), capacity_[d], mesh_);
        if (!fit.taken) break;
        out.pop_front();
        appendOrMerge(current_[d], *fit.taken, mesh_);
        if (fit.rest) out.push_front(*fit.rest);
      }
      freeOut.insert(freeOut.end(), out.begin(), out.end());
      used /= capacity_[d];
      // Axes to drop: those replaced above go to the back, the others to the
      // front, so step 3 puts the latter back where they were.
      in.remove_if([&](const AxisRef &a) { return outPos_.count(a) != 0; });
      while (used > 1 && !in.empty()) {
        Fit fit = fitIn(in.front(), used, mesh_);
        if (!fit.taken) break;
        in.pop_front();
        freeIn[d].push_back(*fit.taken);
        if (fit.rest) in.push_front(*fit.rest);
      }
      freeIn[d].splice(freeIn[d].begin(), in);
    }
    // 2. Target axes not yet placed, on any dimension with room.
    distribute(freeOut, /*toFront=*/false);
    // 3. Axes to drop, back on their own dimension (in front, gathered last).
    distribute(
        /*toFront=*/true, [&](int64_t d) -> Seq & { return freeIn[d]; }, [](const AxisRef &, int64_t) {});
    // 4. Then on any dimension with room.
    Seq rest;
    for (Seq &s : freeIn) rest.splice(rest.end(), s);
    distribute(rest, /*toFront=*/true);
    indexOut();
    for (int64_t d = 0; d < rank(); ++d)
      for (const AxisRef &a : in_[d]) appendOrMerge(current_[d], a, mesh_);
  }

  void tryPermute() {
    if (shouldPermute())
      permute();
    else if (onTargetMesh_)
      return;
    // Reached with a mesh change too: the permute reorders the devices.
    onTargetMesh_ = true;
    CollectiveStep step;
    step.kind = CollectiveStep::Kind::CollectivePermute;
    emit(std::move(step));
  }

  // --- all-to-all -------------------------------------------------------------

  // Moves the longest suffix of `src`'s axes that all go to one other
  // dimension; unless `anyPlace`, only when they land at the front of what
  // that dimension still needs.
  bool allToAllFrom(int64_t src, bool anyPlace) {
    Seq &srcIn = in_[src];
    auto first = srcIn.end();
    std::optional<int64_t> tgt;
    while (first != srcIn.begin()) {
      std::optional<DimIndex> p = outPosOf(*std::prev(first));
      if (!p || p->dim == src || (tgt && p->dim != *tgt)) break;
      tgt = p->dim;
      --first;
    }
    if (!tgt) return false;
    Seq &tgtOut = out_[*tgt];
    if (!anyPlace) {
      if (size_t(std::distance(first, srcIn.end())) > tgtOut.size()) return false;
      if (!std::equal(first, srcIn.end(), tgtOut.begin())) return false;
    }
    CollectiveStep step;
    step.kind = CollectiveStep::Kind::AllToAll;
    step.param.srcDim = src;
    step.param.tgtDim = *tgt;
    popFromCurrent(current_[src], srcIn, first);
    Seq &tgtIn = in_[*tgt];
    while (first != srcIn.end()) {
      AxisRef a = *first;
      appendOrMerge(step.param.axes, a, mesh_);
      appendOrMerge(current_[*tgt], a, mesh_);
      first = srcIn.erase(first);
      inSet_.erase(a);
      if (tgtIn.empty() && !tgtOut.empty() && tgtOut.front() == a) {
        tgtOut.pop_front();
      } else {
        tgtIn.push_back(a);
        inSet_.insert(a);
      }
    }
    emit(std::move(step));
    return true;
  }

  void tryAllToAlls(bool anyPlace) {
    for (int64_t src = 0; src < rank(); ++src)
      while (allToAllFrom(src, anyPlace)) {
      }
  }

  const Mesh &mesh_;
  const std::vector<int64_t> &shape_;
  bool onTargetMesh_;
  std::vector<Seq> in_, out_;
  std::vector<AxisList> current_;
  std::vector<int64_t> capacity_;
  std::set<AxisRef, AxisLess> inSet_;
  std::map<AxisRef, DimIndex, AxisLess> outPos_;
  CollectivePlan plan_;
};

}  // namespace

CollectivePlan planCollectives(const Mesh &mesh, const std::vector<int64_t> &shape,
                               const std::vector<AxisList> &from, const std::vector<AxisList> &to,
                               bool deviceOrderChanges) {
  return Planner(mesh, shape, from, to, deviceOrderChanges).run();
}

}  // namespace autopart
