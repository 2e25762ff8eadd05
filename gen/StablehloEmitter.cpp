#include "gen/StablehloEmitter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace autopart::gen {

namespace {

std::string list(const Dims &d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}

std::string shapeStr(const Shape &s) {
  std::string out;
  for (int64_t d : s) out += std::to_string(d) + "x";
  return out;
}

// Floats as MLIR prints them in dense<...>: 1.000000e+00.
std::string floatLiteral(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6e", v);
  return buf;
}

bool isFloat(const std::string &dtype) { return dtype[0] == 'f' || dtype == "bf16"; }

// Bits of an element type: f32 -> 32, bf16 -> 16, ui64 -> 64, i1 -> 1.
int64_t bitWidth(const std::string &dtype) {
  size_t digits = dtype.find_first_of("0123456789");
  return digits == std::string::npos ? 0 : std::atoll(dtype.c_str() + digits);
}

void require(bool ok, const std::string &what) {
  if (!ok) throw GenError(what);
}

}  // namespace

std::string StablehloEmitter::typeStr(const Shape &shape, const std::string &dtype) {
  return "tensor<" + shapeStr(shape) + dtype + ">";
}

Tensor StablehloEmitter::fresh(Shape shape, std::string dtype) {
  for (int64_t d : shape) require(d > 0, "dimension sizes must be positive");
  return Tensor{"%" + std::to_string(next_++), std::move(shape), std::move(dtype)};
}

std::ostringstream &StablehloEmitter::line() {
  ++numOps_;
  body_ << "    ";
  return body_;
}

Tensor StablehloEmitter::arg(Shape shape, const std::string &info, std::string dtype) {
  if (dtype.empty()) dtype = float_;
  Tensor t{"%arg" + std::to_string(args_.size()), std::move(shape), std::move(dtype)};
  args_.push_back(t.name + ": " + type(t) + " {jax.arg_info = \"" + info + "\"}");
  return t;
}

void StablehloEmitter::result(const Tensor &t, const std::string &info) {
  results_.emplace_back(t.name, type(t) + " {jax.result_info = \"" + info + "\"}");
}

Tensor StablehloEmitter::scalar(double value, std::string dtype) {
  if (dtype.empty()) dtype = float_;
  Tensor t = fresh({}, dtype);
  std::string lit = isFloat(dtype) ? floatLiteral(value) : dtype == "i1" ? (value ? "true" : "false")
                                                                         : std::to_string(int64_t(value));
  line() << t.name << " = stablehlo.constant dense<" << lit << "> : " << type(t) << "\n";
  return t;
}

Tensor StablehloEmitter::splat(double value, const Shape &shape, std::string dtype) {
  return broadcast(scalar(value, std::move(dtype)), shape, {});
}

Tensor StablehloEmitter::dot(const Tensor &a, const Tensor &b, const Dims &batchA, const Dims &batchB,
                             const Dims &contractA, const Dims &contractB) {
  require(a.dtype == b.dtype, "dot_general of " + type(a) + " and " + type(b));
  require(batchA.size() == batchB.size() && contractA.size() == contractB.size(),
          "dot_general: unpaired dimension numbers");
  auto inRange = [](const Tensor &t, const Dims &d) {
    return std::all_of(d.begin(), d.end(), [&](int64_t i) { return i >= 0 && i < t.rank(); });
  };
  require(inRange(a, batchA) && inRange(a, contractA) && inRange(b, batchB) && inRange(b, contractB),
          "dot_general: dimension out of range");
  Shape out;
  for (size_t i = 0; i < batchA.size(); ++i) {
    require(a.shape[batchA[i]] == b.shape[batchB[i]], "dot_general: batch sizes differ: " + type(a) + ", " + type(b));
    out.push_back(a.shape[batchA[i]]);
  }
  for (size_t i = 0; i < contractA.size(); ++i)
    require(a.shape[contractA[i]] == b.shape[contractB[i]],
            "dot_general: contracting sizes differ: " + type(a) + ", " + type(b));
  auto free = [](const Tensor &t, const Dims &x, const Dims &y, Shape &into) {
    for (int64_t i = 0; i < t.rank(); ++i)
      if (std::find(x.begin(), x.end(), i) == x.end() && std::find(y.begin(), y.end(), i) == y.end())
        into.push_back(t.shape[i]);
  };
  free(a, batchA, contractA, out);
  free(b, batchB, contractB, out);
  Tensor r = fresh(out, a.dtype);
  std::ostringstream &os = line();
  os << r.name << " = stablehlo.dot_general " << a.name << ", " << b.name;
  if (!batchA.empty()) os << ", batching_dims = " << list(batchA) << " x " << list(batchB);
  os << ", contracting_dims = " << list(contractA) << " x " << list(contractB) << " : (" << type(a) << ", "
     << type(b) << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::binary(const char *op, const Tensor &a, const Tensor &b) {
  require(a.shape == b.shape && a.dtype == b.dtype,
          std::string("stablehlo.") + op + " of " + type(a) + " and " + type(b));
  Tensor r = fresh(a.shape, a.dtype);
  line() << r.name << " = stablehlo." << op << " " << a.name << ", " << b.name << " : " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::unary(const char *op, const Tensor &a) {
  Tensor r = fresh(a.shape, a.dtype);
  line() << r.name << " = stablehlo." << op << " " << a.name << " : " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::broadcast(const Tensor &x, const Shape &shape, const Dims &dims) {
  require(int64_t(dims.size()) == x.rank(), "broadcast_in_dim: one target dimension per operand dimension");
  for (size_t i = 0; i < dims.size(); ++i)
    require(dims[i] >= 0 && dims[i] < int64_t(shape.size()) && (x.shape[i] == shape[dims[i]] || x.shape[i] == 1),
            "broadcast_in_dim of " + type(x) + " to " + typeStr(shape, x.dtype));
  Tensor r = fresh(shape, x.dtype);
  line() << r.name << " = stablehlo.broadcast_in_dim " << x.name << ", dims = " << list(dims) << " : ("
         << type(x) << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::reduce(const Tensor &x, const Dims &dims, const char *combiner) {
  std::string comb = combiner;
  require(comb == "add" || comb == "maximum", "reduce: unsupported combiner " + comb);
  Tensor init = comb == "add" ? scalar(0, x.dtype) : scalar(-3.0e38, x.dtype);
  Shape out;
  for (int64_t i = 0; i < x.rank(); ++i)
    if (std::find(dims.begin(), dims.end(), i) == dims.end()) out.push_back(x.shape[i]);
  Tensor r = fresh(out, x.dtype);
  line() << r.name << " = stablehlo.reduce(" << x.name << " init: " << init.name << ") applies stablehlo." << comb
         << " across dimensions = " << list(dims) << " : (" << type(x) << ", " << type(init) << ") -> "
         << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::transpose(const Tensor &x, const Dims &perm) {
  require(int64_t(perm.size()) == x.rank(), "transpose: permutation of the wrong rank");
  Shape out;
  for (int64_t p : perm) out.push_back(x.shape.at(size_t(p)));
  Tensor r = fresh(out, x.dtype);
  line() << r.name << " = stablehlo.transpose " << x.name << ", dims = " << list(perm) << " : (" << type(x)
         << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::reshape(const Tensor &x, const Shape &shape) {
  int64_t a = 1, b = 1;
  for (int64_t d : x.shape) a *= d;
  for (int64_t d : shape) b *= d;
  require(a == b, "reshape of " + type(x) + " to " + typeStr(shape, x.dtype));
  Tensor r = fresh(shape, x.dtype);
  line() << r.name << " = stablehlo.reshape " << x.name << " : (" << type(x) << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::compare(const char *direction, const Tensor &a, const Tensor &b) {
  require(a.shape == b.shape && a.dtype == b.dtype, "compare of " + type(a) + " and " + type(b));
  Tensor r = fresh(a.shape, "i1");
  const char *kind = isFloat(a.dtype) ? "FLOAT" : a.dtype[0] == 'u' ? "UNSIGNED" : "SIGNED";
  line() << r.name << " = stablehlo.compare  " << direction << ", " << a.name << ", " << b.name << ",  " << kind
         << " : (" << type(a) << ", " << type(b) << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::select(const Tensor &pred, const Tensor &a, const Tensor &b) {
  require(pred.dtype == "i1" && pred.shape == a.shape && a.shape == b.shape && a.dtype == b.dtype,
          "select of " + type(pred) + ", " + type(a) + ", " + type(b));
  Tensor r = fresh(a.shape, a.dtype);
  line() << r.name << " = stablehlo.select " << pred.name << ", " << a.name << ", " << b.name << " : "
         << type(pred) << ", " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::iota(const Shape &shape, int64_t dim, std::string dtype) {
  require(dim >= 0 && dim < int64_t(shape.size()), "iota dimension out of range");
  Tensor r = fresh(shape, std::move(dtype));
  line() << r.name << " = stablehlo.iota dim = " << dim << " : " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::convert(const Tensor &x, const std::string &dtype) {
  Tensor r = fresh(x.shape, dtype);
  line() << r.name << " = stablehlo.convert " << x.name << " : (" << type(x) << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::gatherRows(const Tensor &table, const Tensor &indices) {
  require(indices.rank() >= 1 && indices.shape.back() == 1 && table.rank() >= 1,
          "gatherRows: indices must end in a dimension of 1");
  Shape out(indices.shape.begin(), indices.shape.end() - 1);
  Dims offsetDims;
  Dims sliceSizes = {1};
  for (int64_t i = 1; i < table.rank(); ++i) {
    offsetDims.push_back(int64_t(out.size()));
    out.push_back(table.shape[i]);
    sliceSizes.push_back(table.shape[i]);
  }
  Tensor r = fresh(out, table.dtype);
  std::string sizes;
  for (size_t i = 0; i < sliceSizes.size(); ++i) sizes += (i ? ", " : "") + std::to_string(sliceSizes[i]);
  line() << r.name << " = \"stablehlo.gather\"(" << table.name << ", " << indices.name
         << ") <{dimension_numbers = #stablehlo.gather<offset_dims = " << list(offsetDims)
         << ", collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = " << indices.rank() - 1
         << ">, slice_sizes = array<i64: " << sizes << ">}> : (" << type(table) << ", " << type(indices) << ") -> "
         << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::scatterAddRows(int64_t rows, const Tensor &indices, const Tensor &updates) {
  int64_t batchRank = indices.rank() - 1;
  require(batchRank >= 0 && indices.shape.back() == 1 && updates.rank() >= batchRank,
          "scatterAddRows: indices must end in a dimension of 1");
  for (int64_t i = 0; i < batchRank; ++i)
    require(updates.shape[i] == indices.shape[i], "scatterAddRows: updates and indices disagree");
  Shape out = {rows};
  Dims windowDims;
  for (int64_t i = batchRank; i < updates.rank(); ++i) {
    windowDims.push_back(i);
    out.push_back(updates.shape[i]);
  }
  Tensor zero = splat(0, out, updates.dtype);
  Tensor r = fresh(out, updates.dtype);
  std::string s = typeStr({}, updates.dtype);
  std::string a = "%scatter_lhs" + std::to_string(next_), b = "%scatter_rhs" + std::to_string(next_);
  std::string sum = "%scatter_sum" + std::to_string(next_);
  line() << r.name << " = \"stablehlo.scatter\"(" << zero.name << ", " << indices.name << ", " << updates.name
         << ") <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = " << list(windowDims)
         << ", inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = " << batchRank
         << ">}> ({\n"
         << "    ^bb0(" << a << ": " << s << ", " << b << ": " << s << "):\n"
         << "      " << sum << " = stablehlo.add " << a << ", " << b << " : " << s << "\n"
         << "      stablehlo.return " << sum << " : " << s << "\n"
         << "    }) : (" << type(zero) << ", " << type(indices) << ", " << type(updates) << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::conv2d(const Tensor &input, const Tensor &kernel, int64_t stride) {
  require(input.rank() == 4 && kernel.rank() == 4 && input.shape[3] == kernel.shape[2] && kernel.shape[0] % 2 == 1 &&
              kernel.shape[1] % 2 == 1 && stride >= 1,
          "conv2d of " + type(input) + " with " + type(kernel));
  ConvSpec spec;
  spec.stride = {stride, stride};
  spec.pad = {{kernel.shape[0] / 2, kernel.shape[0] / 2}, {kernel.shape[1] / 2, kernel.shape[1] / 2}};
  return convolution(input, kernel, spec);
}

namespace {

// Position of `letter` in a convolution layout, -1 when absent.
int64_t layoutDim(const std::string &layout, char letter) {
  size_t i = layout.find(letter);
  return i == std::string::npos ? -1 : int64_t(i);
}

// "b01f" -> "[b, 0, 1, f]".
std::string layoutStr(const std::string &layout) {
  std::string s = "[";
  for (size_t i = 0; i < layout.size(); ++i) s += (i ? ", " : "") + std::string(1, layout[i]);
  return s + "]";
}

bool allOnes(const Dims &d) {
  return std::all_of(d.begin(), d.end(), [](int64_t x) { return x == 1; });
}

}  // namespace

Tensor StablehloEmitter::convolution(const Tensor &lhs, const Tensor &rhs, const ConvSpec &spec) {
  const std::string what = "convolution of " + type(lhs) + " with " + type(rhs);
  const int64_t rank = lhs.rank();
  const size_t spatial = size_t(rank - 2);
  require(rank >= 3 && rhs.rank() == rank && lhs.dtype == rhs.dtype, what);
  require(spec.lhs.size() == size_t(rank) && spec.rhs.size() == size_t(rank) && spec.out.size() == size_t(rank) &&
              spec.stride.size() == spatial && spec.pad.size() == spatial && spec.lhsDilate.size() == spatial &&
              spec.rhsDilate.size() == spatial,
          what + ": dimension numbers or window of the wrong rank");
  int64_t lb = layoutDim(spec.lhs, 'b'), lf = layoutDim(spec.lhs, 'f');
  int64_t ki = layoutDim(spec.rhs, 'i'), ko = layoutDim(spec.rhs, 'o');
  int64_t ob = layoutDim(spec.out, 'b'), of = layoutDim(spec.out, 'f');
  require(lb >= 0 && lf >= 0 && ki >= 0 && ko >= 0 && ob >= 0 && of >= 0, what + ": layout without b/f/i/o");
  require(lhs.shape[lf] == rhs.shape[ki], what + ": input features differ");
  Shape out(size_t(rank), 0);
  out[ob] = lhs.shape[lb];
  out[of] = rhs.shape[ko];
  for (size_t s = 0; s < spatial; ++s) {
    char digit = char('0' + s);
    int64_t l = layoutDim(spec.lhs, digit), k = layoutDim(spec.rhs, digit), o = layoutDim(spec.out, digit);
    require(l >= 0 && k >= 0 && o >= 0, what + ": layout without spatial dimension " + std::string(1, digit));
    require(spec.stride[s] >= 1 && spec.lhsDilate[s] >= 1 && spec.rhsDilate[s] >= 1, what + ": bad window");
    int64_t in = (lhs.shape[l] - 1) * spec.lhsDilate[s] + 1 + spec.pad[s].first + spec.pad[s].second;
    int64_t window = (rhs.shape[k] - 1) * spec.rhsDilate[s] + 1;
    require(in >= window, what + ": window larger than the padded input");
    out[o] = (in - window) / spec.stride[s] + 1;
  }
  Tensor r = fresh(out, lhs.dtype);
  std::ostringstream &os = line();
  os << r.name << " = stablehlo.convolution(" << lhs.name << ", " << rhs.name << ") dim_numbers = "
     << layoutStr(spec.lhs) << "x" << layoutStr(spec.rhs) << "->" << layoutStr(spec.out) << ", window = {";
  if (!allOnes(spec.stride)) os << "stride = " << list(spec.stride) << ", ";
  os << "pad = [";
  for (size_t s = 0; s < spatial; ++s)
    os << (s ? ", " : "") << "[" << spec.pad[s].first << ", " << spec.pad[s].second << "]";
  os << "]";
  if (!allOnes(spec.lhsDilate)) os << ", lhs_dilate = " << list(spec.lhsDilate);
  if (!allOnes(spec.rhsDilate)) os << ", rhs_dilate = " << list(spec.rhsDilate);
  os << "} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (" << type(lhs) << ", " << type(rhs)
     << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::slice(const Tensor &x, const Dims &start, const Dims &limit) {
  require(int64_t(start.size()) == x.rank() && int64_t(limit.size()) == x.rank(), "slice: bounds of the wrong rank");
  Shape out;
  for (int64_t i = 0; i < x.rank(); ++i) {
    require(0 <= start[i] && start[i] < limit[i] && limit[i] <= x.shape[i],
            "slice of " + type(x) + ": bounds out of range");
    out.push_back(limit[i] - start[i]);
  }
  Tensor r = fresh(out, x.dtype);
  std::ostringstream &os = line();
  os << r.name << " = stablehlo.slice " << x.name << " [";
  for (int64_t i = 0; i < x.rank(); ++i) os << (i ? ", " : "") << start[i] << ":" << limit[i];
  os << "] : (" << type(x) << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::reverse(const Tensor &x, const Dims &dims) {
  for (int64_t d : dims) require(d >= 0 && d < x.rank(), "reverse of " + type(x) + ": dimension out of range");
  Tensor r = fresh(x.shape, x.dtype);
  line() << r.name << " = stablehlo.reverse " << x.name << ", dims = " << list(dims) << " : " << type(r) << "\n";
  return r;
}

std::vector<Tensor> StablehloEmitter::optimizationBarrier(const std::vector<Tensor> &values) {
  require(!values.empty(), "optimization_barrier of no values");
  std::string base = "%" + std::to_string(next_++);
  std::vector<Tensor> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back(Tensor{values.size() == 1 ? base : base + "#" + std::to_string(i), values[i].shape, values[i].dtype});
  std::ostringstream &os = line();
  os << base;
  if (values.size() > 1) os << ":" << values.size();
  os << " = stablehlo.optimization_barrier ";
  for (size_t i = 0; i < values.size(); ++i) os << (i ? ", " : "") << values[i].name;
  os << " : ";
  for (size_t i = 0; i < values.size(); ++i) os << (i ? ", " : "") << type(values[i]);
  os << "\n";
  return out;
}

std::pair<Tensor, Tensor> StablehloEmitter::rngBitGenerator(const Tensor &state, const Shape &shape,
                                                            const std::string &dtype) {
  require(state.dtype == "ui64" && state.shape == Shape{2}, "rng_bit_generator state " + type(state));
  require(dtype[0] == 'u' || dtype[0] == 'i', "rng_bit_generator of " + dtype + " bits");
  for (int64_t d : shape) require(d > 0, "dimension sizes must be positive");
  std::string base = "%" + std::to_string(next_++);
  Tensor next{base + "#0", state.shape, state.dtype}, bits{base + "#1", shape, dtype};
  line() << base << ":2 = stablehlo.rng_bit_generator " << state.name << ", algorithm =  DEFAULT : (" << type(state)
         << ") -> (" << type(next) << ", " << type(bits) << ")\n";
  return {next, bits};
}

Tensor StablehloEmitter::bitcastConvert(const Tensor &x, const std::string &dtype) {
  require(bitWidth(x.dtype) == bitWidth(dtype) && bitWidth(dtype) > 0,
          "bitcast_convert of " + type(x) + " to " + dtype + ": widths differ");
  Tensor r = fresh(x.shape, dtype);
  line() << r.name << " = stablehlo.bitcast_convert " << x.name << " : (" << type(x) << ") -> " << type(r) << "\n";
  return r;
}

Tensor StablehloEmitter::concatenate(const std::vector<Tensor> &parts, int64_t dim) {
  require(!parts.empty() && dim >= 0 && dim < parts[0].rank(), "concatenate: bad dimension");
  Shape out = parts[0].shape;
  out[dim] = 0;
  for (const Tensor &p : parts) {
    require(p.rank() == parts[0].rank() && p.dtype == parts[0].dtype, "concatenate: operands differ");
    for (int64_t i = 0; i < p.rank(); ++i)
      require(i == dim || p.shape[i] == parts[0].shape[i], "concatenate: operands differ off the axis");
    out[dim] += p.shape[dim];
  }
  Tensor r = fresh(out, parts[0].dtype);
  std::ostringstream &os = line();
  os << r.name << " = stablehlo.concatenate ";
  for (size_t i = 0; i < parts.size(); ++i) os << (i ? ", " : "") << parts[i].name;
  os << ", dim = " << dim << " : (";
  for (size_t i = 0; i < parts.size(); ++i) os << (i ? ", " : "") << type(parts[i]);
  os << ") -> " << type(r) << "\n";
  return r;
}

std::string StablehloEmitter::module(const std::string &name) const {
  std::ostringstream os;
  os << "module @" << name
     << " attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : "
        "i32} {\n";
  os << "  func.func public @main(";
  for (size_t i = 0; i < args_.size(); ++i) os << (i ? ", " : "") << args_[i];
  os << ") -> (";
  for (size_t i = 0; i < results_.size(); ++i) os << (i ? ", " : "") << results_[i].second;
  os << ") {\n" << body_.str() << "    return ";
  for (size_t i = 0; i < results_.size(); ++i) os << (i ? ", " : "") << results_[i].first;
  os << " : ";
  for (size_t i = 0; i < results_.size(); ++i) {
    const std::string &t = results_[i].second;
    os << (i ? ", " : "") << t.substr(0, t.find(" {"));
  }
  os << "\n  }\n}\n";
  return os.str();
}

}  // namespace autopart::gen
