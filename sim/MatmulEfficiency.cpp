#include "sim/MatmulEfficiency.h"

#include <algorithm>
#include <cmath>

#include "ir/StablehloAttrs.h"

namespace autopart {

namespace {

std::vector<double> localDims(const Module &m, TypeId t, const TensorSharding *s, const Mesh *mesh) {
  std::vector<double> dims;
  for (size_t d = 0; d < m.types.shape(t).size(); ++d) {
    int64_t extent = m.types.shape(t)[d];
    if (s && mesh && d < s->dims.size()) {
      int64_t parts = s->dims[d].shardCount(*mesh);
      if (parts > 1) extent = (extent + parts - 1) / parts;
    }
    dims.push_back(double(std::max<int64_t>(extent, 1)));
  }
  return dims;
}

double product(const std::vector<double> &dims, size_t begin, size_t end) {
  double p = 1;
  for (size_t i = begin; i < end && i < dims.size(); ++i) p *= dims[i];
  return p;
}

}  // namespace

std::optional<GemmShape> localGemmShape(const Module &m, OpId op, const TensorSharding *result, const Mesh *mesh,
                                        double localFlops) {
  if (m.numResults(op) != 1 || m.numOperands(op) < 2) return std::nullopt;
  TypeId rt = m.type(m.result(op));
  if (!m.types.isTensor(rt) || m.types.hasDynamicDim(rt)) return std::nullopt;
  std::vector<double> dims = localDims(m, rt, result, mesh);
  GemmShape g;
  double elems = product(dims, 0, dims.size());
  if (m.isa(op, "stablehlo.convolution")) {
    std::optional<ConvDims> cd = getConvDims(m, op);
    if (!cd || size_t(cd->outputFeature) >= dims.size()) return std::nullopt;
    g.n = dims[size_t(cd->outputFeature)];
    g.m = elems / g.n;
  } else {
    std::optional<DotDims> dd = getDotDims(m, op);
    if (!dd) return std::nullopt;
    TypeId lt = m.type(m.operand(op, 0));
    if (!m.types.isTensor(lt)) return std::nullopt;
    size_t nb = dd->lhsBatch.size();
    size_t lhsRank = m.types.shape(lt).size();
    size_t lhsFree = lhsRank - std::min(lhsRank, nb + dd->lhsContract.size());
    g.batch = product(dims, 0, nb);
    g.m = product(dims, nb, nb + lhsFree);
    g.n = product(dims, nb + lhsFree, dims.size());
  }
  g.k = elems > 0 ? std::max(1.0, localFlops / (2 * elems)) : 1;
  return g;
}

double gemmEfficiency(const GemmShape &g, const MatmulParams &p) {
  double kFill = p.kOverhead > 0 ? g.k / (g.k + p.kOverhead) : 1;
  if (p.units <= 0 || p.tiles.empty()) return p.peakFraction * kFill;
  double best = 0;
  for (const GemmTile &t : p.tiles) {
    double tm = double(t.m), tn = double(t.n);
    double tilesM = std::ceil(g.m / tm), tilesN = std::ceil(g.n / tn);
    double tileFill = g.m * g.n / (tilesM * tm * tilesN * tn);
    double tiles = g.batch * tilesM * tilesN;
    double units = double(p.units);
    double waveFill = tiles / (std::ceil(tiles / units) * units);
    best = std::max(best, t.efficiency * tileFill * waveFill);
  }
  return std::max(1e-3, p.peakFraction * best * kFill);
}

}  // namespace autopart
