// Kernel formation (sim/Kernels.h) and what each kernel costs through the
// simulator: which ops XLA's fusion passes put together, of what kind, and
// the HBM bytes crossing each kernel's boundary. The programs are one flat
// function, so a site is the entry block's op index (constants and the
// return included; they are no kernel). Every tensor is f32 (4 bytes).
//
// The device is 1 TFLOP/s and 1 TB/s with ideal GEMMs and no launch cost, so
// a kernel's time in seconds is max(FLOPs, bytes) x 1e-12.
#include "sim/Kernels.h"

#include <sstream>

#include "sim/Simulator.h"
#include "tests/sim/SimTestUtil.h"

namespace autopart {
namespace {

using testing::parse;

DeviceParams simpleDevice() {
  DeviceParams d;
  d.peakFlopsDefault = 1e12;
  d.hbmBandwidth = 1e12;
  d.hbmEfficiency = 1;
  d.kernelLaunchSeconds = 0;
  return d;
}

// "kind{root: members}" per kernel, for failure messages.
std::string describe(const Simulator &sim) {
  std::ostringstream os;
  for (const Kernel &k : sim.kernels().kernels) {
    os << kernelKindName(k.kind) << "{" << k.root << ":";
    for (uint32_t s : k.members) os << " " << s;
    os << "} ";
  }
  return os.str();
}

std::vector<uint32_t> sites(std::initializer_list<uint32_t> s) { return s; }

// Layernorm -> x.W1 + b1 -> GELU (tanh form) -> .W2; batch 64, 128 -> 256
// -> 128 features. Each line's site number is in the comment on its right.
constexpr const char *kMlpBlock = R"(func.func @main(%x: tensor<64x128xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>,
                %w1: tensor<128x256xf32>, %b1: tensor<256xf32>, %w2: tensor<256x128xf32>) -> tensor<64x128xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %nD = stablehlo.constant dense<1.280000e+02> : tensor<f32>
  %eps = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
  %k1 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
  %k2 = stablehlo.constant dense<0.797884583> : tensor<f32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %half = stablehlo.constant dense<5.000000e-01> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %nb = stablehlo.broadcast_in_dim %nD, dims = [] : (tensor<f32>) -> tensor<64xf32>
  %mean = stablehlo.divide %sum, %nb : tensor<64xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
  %c = stablehlo.subtract %x, %mb : tensor<64x128xf32>
  %c2 = stablehlo.multiply %c, %c : tensor<64x128xf32>
  %vs = stablehlo.reduce(%c2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %var = stablehlo.divide %vs, %nb : tensor<64xf32>
  %epsb = stablehlo.broadcast_in_dim %eps, dims = [] : (tensor<f32>) -> tensor<64xf32>
  %ve = stablehlo.add %var, %epsb : tensor<64xf32>
  %r = stablehlo.rsqrt %ve : tensor<64xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
  %xn = stablehlo.multiply %c, %rb : tensor<64x128xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<128xf32>) -> tensor<64x128xf32>
  %y0 = stablehlo.multiply %xn, %gb : tensor<64x128xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<64x128xf32>
  %y = stablehlo.add %y0, %bb : tensor<64x128xf32>
  %h = stablehlo.dot_general %y, %w1, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %b1b = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<256xf32>) -> tensor<64x256xf32>
  %h1 = stablehlo.add %h, %b1b : tensor<64x256xf32>
  %h2 = stablehlo.multiply %h1, %h1 : tensor<64x256xf32>
  %h3 = stablehlo.multiply %h2, %h1 : tensor<64x256xf32>
  %k1b = stablehlo.broadcast_in_dim %k1, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
  %t0 = stablehlo.multiply %h3, %k1b : tensor<64x256xf32>
  %t1 = stablehlo.add %h1, %t0 : tensor<64x256xf32>
  %k2b = stablehlo.broadcast_in_dim %k2, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
  %t2 = stablehlo.multiply %t1, %k2b : tensor<64x256xf32>
  %t3 = stablehlo.tanh %t2 : tensor<64x256xf32>
  %oneb = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
  %t4 = stablehlo.add %t3, %oneb : tensor<64x256xf32>
  %halfb = stablehlo.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
  %t5 = stablehlo.multiply %h1, %halfb : tensor<64x256xf32>
  %a = stablehlo.multiply %t5, %t4 : tensor<64x256xf32>
  %o = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
  return %o : tensor<64x128xf32>
}
)";
// Sites:  0-6 constants zero nD eps k1 k2 one half
//         7 sum   8 nb   9 mean  10 mb  11 c   12 c2  13 vs  14 var
//         15 epsb 16 ve  17 r    18 rb  19 xn  20 gb  21 y0  22 bb  23 y
//         24 h    25 b1b 26 h1   27 h2  28 h3  29 k1b 30 t0  31 t1
//         32 k2b  33 t2  34 t3   35 oneb 36 t4 37 halfb 38 t5 39 a
//         40 o    41 return

TEST(Kernels, MlpBlockFusesLayernormIntoThreeKernelsAndGeluIntoTheGemm) {
  auto m = parse(kMlpBlock);
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  StepSummary s = sim.evaluate();
  ASSERT_EQ(sim.sites().size(), 42u);
  const KernelPlan &plan = sim.kernels();
  // mean (input), variance (input), normalise (loop), W1 + bias + GELU
  // (library with epilogue), W2 (library).
  ASSERT_EQ(plan.kernels.size(), 5u) << describe(sim);
  const Kernel &kMean = plan.kernels[0], &kVar = plan.kernels[1], &kNorm = plan.kernels[2],
               &kGemm1 = plan.kernels[3], &kGemm2 = plan.kernels[4];

  EXPECT_EQ(kMean.kind, KernelKind::Input);
  EXPECT_EQ(kMean.root, 7u);
  EXPECT_EQ(kMean.members, sites({7}));
  // The variance reduction recomputes c = x - mean (c, mb, mean, nb are
  // small enough to duplicate: a tree of 4 ops).
  EXPECT_EQ(kVar.kind, KernelKind::Input);
  EXPECT_EQ(kVar.root, 13u);
  EXPECT_EQ(kVar.members, sites({8, 9, 10, 11, 12, 13})) << describe(sim);
  // Normalise, scale and shift: c again, the variance's rsqrt, gamma, beta.
  EXPECT_EQ(kNorm.kind, KernelKind::Loop);
  EXPECT_EQ(kNorm.root, 23u);
  EXPECT_EQ(kNorm.members, sites({8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})) << describe(sim);
  // The GEMM takes the bias add and the whole GELU as its epilogue.
  EXPECT_EQ(kGemm1.kind, KernelKind::Library);
  EXPECT_EQ(kGemm1.root, 39u);
  EXPECT_EQ(kGemm1.members, sites({24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39})) << describe(sim);
  EXPECT_EQ(kGemm2.kind, KernelKind::Library);
  EXPECT_EQ(kGemm2.members, sites({40}));

  // c (site 11) is in both the variance and the normalise kernel; its FLOPs
  // are counted once, in the first.
  EXPECT_EQ(plan.memberships.row(11).size(), 2u);
  EXPECT_EQ(plan.owner[11], 1u);
  EXPECT_EQ(plan.owner[0], KernelPlan::kNoKernel);   // a constant
  EXPECT_EQ(plan.owner[41], KernelPlan::kNoKernel);  // the return

  // Bytes: x 64x128 = 32768, a row vector (64) 256, gamma/beta 512,
  // b1 1024, W1/W2 131072, h/a (64x256) 65536, y/o 32768, a scalar constant 4.
  // mean:      reads x, zero;                writes sum  32768 + 4 + 256
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 33028);
  // variance:  reads zero, x, sum, nD;       writes vs   4 + 32768 + 256 + 4 + 256
  EXPECT_DOUBLE_EQ(sim.kernelBytes(1), 33288);
  // normalise: reads x, sum, nD, vs, eps, g, b; writes y
  //            32768 + 256 + 4 + 256 + 4 + 512 + 512 + 32768
  EXPECT_DOUBLE_EQ(sim.kernelBytes(2), 67080);
  // GEMM 1:    reads y, W1, b1, k1, k2, one, half; writes a (h never reaches HBM)
  //            32768 + 131072 + 1024 + 4·4 + 65536
  EXPECT_DOUBLE_EQ(sim.kernelBytes(3), 230416);
  // GEMM 2:    reads a, W2; writes o             65536 + 131072 + 32768
  EXPECT_DOUBLE_EQ(sim.kernelBytes(4), 229376);

  // Time: max(FLOPs, bytes) ps. Elementwise ops 1 FLOP per element (a
  // 64x128 op 8192, a 64-vector op 64, a 64x256 op 16384), a reduction 1
  // per input element, broadcasts 0, a dot 2·M·N·K.
  // mean:      8192 FLOPs < 33028 bytes
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(0), 33028e-12);
  // variance:  mean 64 + c 8192 + c2 8192 + vs 8192 = 24640 < 33288 bytes
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(1), 33288e-12);
  // normalise: var, ve, r 3·64 + xn, y0, y 3·8192 = 24768 < 67080 bytes
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(2), 67080e-12);
  // GEMM 1:    2·64·256·128 = 4194304 + 10 elementwise ops · 16384 = 4358144
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(3), 4358144e-12);
  // GEMM 2:    2·64·128·256 = 4194304
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(4), 4194304e-12);
  // No collectives: the step is the kernels one after another.
  const double total = (33028.0 + 33288 + 67080 + 4358144 + 4194304) * 1e-12;
  EXPECT_DOUBLE_EQ(s.computeSeconds, total);
  EXPECT_DOUBLE_EQ(s.stepSeconds, total);
}

// Softmax over rows: the exponential (and the subtraction it reads) feeds
// both the sum and the division, so each of their kernels recomputes it.
constexpr const char *kSoftmax = R"(func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %ninf = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %mxb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
  %d = stablehlo.subtract %x, %mxb : tensor<64x128xf32>
  %e = stablehlo.exponential %d : tensor<64x128xf32>
  %sm = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %smb = stablehlo.broadcast_in_dim %sm, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
  %p = stablehlo.divide %e, %smb : tensor<64x128xf32>
  return %p : tensor<64x128xf32>
}
)";
// Sites: 0 ninf, 1 zero, 2 mx, 3 mxb, 4 d, 5 e, 6 sm, 7 smb, 8 p, 9 return.

TEST(Kernels, SoftmaxDuplicatesTheExponentialIntoBothConsumers) {
  auto m = parse(kSoftmax);
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  const KernelPlan &plan = sim.kernels();
  ASSERT_EQ(plan.kernels.size(), 3u) << describe(sim);
  EXPECT_EQ(plan.kernels[0].kind, KernelKind::Input);
  EXPECT_EQ(plan.kernels[0].members, sites({2}));
  EXPECT_EQ(plan.kernels[1].kind, KernelKind::Input);
  EXPECT_EQ(plan.kernels[1].members, sites({3, 4, 5, 6})) << describe(sim);
  EXPECT_EQ(plan.kernels[2].kind, KernelKind::Loop);
  EXPECT_EQ(plan.kernels[2].members, sites({3, 4, 5, 7, 8})) << describe(sim);
  // max:    reads x, ninf;    writes mx   32768 + 4 + 256
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 33028);
  // sum:    reads zero, x, mx; writes sm  4 + 32768 + 256 + 256
  EXPECT_DOUBLE_EQ(sim.kernelBytes(1), 33284);
  // divide: reads x, mx, sm;  writes p    32768 + 256 + 256 + 32768
  EXPECT_DOUBLE_EQ(sim.kernelBytes(2), 66048);
  // All memory-bound: the sum kernel's FLOPs d, e, sm = 3·8192 = 24576
  // < 33284; the divide's p = 8192 (d, e owned by the sum kernel).
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(1), 33284e-12);
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(2), 66048e-12);
}

// e5 = exp⁵(x) is a tree of 5 ops, too big to duplicate, but x·x-style
// reuse by one op is one consumer: the square takes it in.
TEST(Kernels, AnOpReadingAValueTwiceIsOneConsumer) {
  auto m = parse(R"(func.func @main(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e1 = stablehlo.exponential %x : tensor<64x128xf32>
  %e2 = stablehlo.exponential %e1 : tensor<64x128xf32>
  %e3 = stablehlo.exponential %e2 : tensor<64x128xf32>
  %e4 = stablehlo.exponential %e3 : tensor<64x128xf32>
  %e5 = stablehlo.exponential %e4 : tensor<64x128xf32>
  %s = stablehlo.multiply %e5, %e5 : tensor<64x128xf32>
  return %s : tensor<64x128xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 1u) << describe(sim);
  EXPECT_EQ(sim.kernels().kernels[0].members, sites({0, 1, 2, 3, 4, 5}));
  // reads x, writes s: 32768 + 32768
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 65536);
}

// A GEMM squared: h·h is one elementwise consumer, the GEMM's epilogue.
TEST(Kernels, GemmEpilogueMayReadTheResultTwice) {
  auto m = parse(R"(func.func @main(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>) -> tensor<64x256xf32> {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %s = stablehlo.multiply %h, %h : tensor<64x256xf32>
  return %s : tensor<64x256xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 1u) << describe(sim);
  EXPECT_EQ(sim.kernels().kernels[0].kind, KernelKind::Library);
  EXPECT_EQ(sim.kernels().kernels[0].members, sites({0, 1}));
  // reads x, w; writes s: 32768 + 131072 + 65536
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 229376);
  // 2·64·256·128 + 64·256 = 4194304 + 16384 FLOPs
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(0), 4210688e-12);
}

// A GEMM result the program also returns must reach HBM: no epilogue.
TEST(Kernels, ReturnedGemmResultKeepsItsOwnKernel) {
  auto m = parse(R"(func.func @main(%x: tensor<64x128xf32>, %w: tensor<128x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  %zb = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
  %a = stablehlo.maximum %h, %zb : tensor<64x256xf32>
  return %h, %a : tensor<64x256xf32>, tensor<64x256xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 2u) << describe(sim);
  EXPECT_EQ(sim.kernels().kernels[0].kind, KernelKind::Library);
  EXPECT_EQ(sim.kernels().kernels[0].members, sites({1}));
  EXPECT_EQ(sim.kernels().kernels[1].kind, KernelKind::Loop);
  EXPECT_EQ(sim.kernels().kernels[1].members, sites({2, 3}));
  // GEMM: reads x, w, writes h: 32768 + 131072 + 65536
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 229376);
  // ReLU: reads h, zero, writes a: 65536 + 4 + 65536
  EXPECT_DOUBLE_EQ(sim.kernelBytes(1), 131076);
}

TEST(Kernels, LoneReshapeIsABitcast) {
  auto m = parse(R"(func.func @main(%x: tensor<64x128xf32>) -> tensor<8192xf32> {
  %r = stablehlo.reshape %x : (tensor<64x128xf32>) -> tensor<8192xf32>
  return %r : tensor<8192xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  StepSummary s = sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 1u);
  EXPECT_EQ(sim.kernels().kernels[0].kind, KernelKind::Bitcast);
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(0), 0);
  EXPECT_DOUBLE_EQ(s.stepSeconds, 0);
}

TEST(Kernels, TransposeFeedingADotIsReadByTheGemm) {
  auto m = parse(R"(func.func @main(%x: tensor<64x128xf32>, %w: tensor<256x128xf32>) -> tensor<64x256xf32> {
  %t = stablehlo.transpose %w, dims = [1, 0] : (tensor<256x128xf32>) -> tensor<128x256xf32>
  %h = stablehlo.dot_general %x, %t, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128x256xf32>) -> tensor<64x256xf32>
  return %h : tensor<64x256xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 1u) << describe(sim);
  EXPECT_EQ(sim.kernels().kernels[0].kind, KernelKind::Library);
  EXPECT_EQ(sim.kernels().kernels[0].members, sites({0, 1}));
  // reads x, w; writes h: 32768 + 131072 + 65536 (no transposed copy)
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 229376);
  // 2·64·256·128 = 4194304 FLOPs
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(0), 4194304e-12);
}

TEST(Kernels, SliceAndGatherReadOnlyWhatTheyReturn) {
  auto m = parse(R"(func.func @main(%x: tensor<64x128xf32>, %table: tensor<1000x64xf32>, %ids: tensor<16xi32>)
    -> (tensor<64x32xf32>, tensor<16x64xf32>) {
  %s = stablehlo.slice %x [0:64, 0:32] : (tensor<64x128xf32>) -> tensor<64x32xf32>
  %e = stablehlo.exponential %s : tensor<64x32xf32>
  %g = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>}> : (tensor<1000x64xf32>, tensor<16xi32>) -> tensor<16x64xf32>
  return %e, %g : tensor<64x32xf32>, tensor<16x64xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 2u) << describe(sim);
  // The slice fuses into the exponential: reads the 64x32 slice of x, not
  // all of it, writes e: 8192 + 8192.
  EXPECT_EQ(sim.kernels().kernels[0].members, sites({0, 1}));
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 16384);
  // The gather (returned, so a kernel of its own) reads 16 rows of 64 of the
  // table and the 16 indices, writes them: 4096 + 64 + 4096.
  EXPECT_EQ(sim.kernels().kernels[1].members, sites({2}));
  EXPECT_DOUBLE_EQ(sim.kernelBytes(1), 8256);
}

// Two slices of one value in one kernel (a split of a fused projection)
// read both halves, not one.
TEST(Kernels, TwoSlicesOfOneValueReadBoth) {
  auto m = parse(R"(func.func @main(%x: tensor<64x128xf32>) -> tensor<64x64xf32> {
  %a = stablehlo.slice %x [0:64, 0:64] : (tensor<64x128xf32>) -> tensor<64x64xf32>
  %b = stablehlo.slice %x [0:64, 64:128] : (tensor<64x128xf32>) -> tensor<64x64xf32>
  %s = stablehlo.add %a, %b : tensor<64x64xf32>
  return %s : tensor<64x64xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 1u) << describe(sim);
  EXPECT_EQ(sim.kernels().kernels[0].members, sites({0, 1, 2}));
  // reads x's two 64x64 halves, writes s: 16384 + 16384 + 16384
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 49152);
}

// A slice and a whole read of the same value: the whole value is read once,
// whichever member the kernel meets first.
TEST(Kernels, SliceAndWholeReadOfOneValueReadItOnce) {
  auto m = parse(R"(func.func @main(%x: tensor<64x128xf32>) -> tensor<64x192xf32> {
  %n = stablehlo.negate %x : tensor<64x128xf32>
  %a = stablehlo.slice %x [0:64, 0:64] : (tensor<64x128xf32>) -> tensor<64x64xf32>
  %e = stablehlo.exponential %a : tensor<64x64xf32>
  %c = stablehlo.concatenate %n, %e, dim = 1 : (tensor<64x128xf32>, tensor<64x64xf32>) -> tensor<64x192xf32>
  return %c : tensor<64x192xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 1u) << describe(sim);
  EXPECT_EQ(sim.kernels().kernels[0].members, sites({0, 1, 2, 3}));
  // reads all of x once, writes c: 32768 + 64·192·4
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 32768 + 49152);
}

TEST(Kernels, DynamicUpdateSliceWritesOnlyTheUpdateInPlace) {
  auto m = parse(R"(func.func @main(%buf: tensor<64x128xf32>, %v: tensor<8x128xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<64x128xf32> {
  %e = stablehlo.exponential %v : tensor<8x128xf32>
  %u = stablehlo.dynamic_update_slice %buf, %e, %i, %j : (tensor<64x128xf32>, tensor<8x128xf32>, tensor<i32>, tensor<i32>) -> tensor<64x128xf32>
  return %u : tensor<64x128xf32>
})");
  ASSERT_TRUE(m);
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice());
  sim.evaluate();
  ASSERT_EQ(sim.kernels().kernels.size(), 1u) << describe(sim);
  const Kernel &k = sim.kernels().kernels[0];
  EXPECT_EQ(k.kind, KernelKind::InPlace);
  EXPECT_EQ(k.members, sites({0, 1}));  // the update's producer fuses in
  EXPECT_EQ(k.writtenOperand, 1);
  // Reads v and the two indices, writes the 8x128 update into buf (neither
  // read nor rewritten whole): 4096 + 4 + 4 + 4096.
  EXPECT_DOUBLE_EQ(sim.kernelBytes(0), 8200);
  // exp: 1024 FLOPs < 8200 bytes
  EXPECT_DOUBLE_EQ(sim.kernelSeconds(0), 8200e-12);
}

TEST(Kernels, UnfusedGivesOneKernelPerPricedOp) {
  auto m = parse(kSoftmax);
  ASSERT_TRUE(m);
  SimOptions o;
  o.fuse = false;
  Simulator sim(*m, ShardingMap::fromModule(*m), simpleDevice(), o);
  StepSummary s = sim.evaluate();
  const KernelPlan &plan = sim.kernels();
  // mx, mxb, d, e, sm, smb, p: the constants and the return are free.
  ASSERT_EQ(plan.kernels.size(), 7u) << describe(sim);
  for (size_t k = 0; k < plan.kernels.size(); ++k) {
    EXPECT_EQ(plan.kernels[k].kind, KernelKind::Loop);
    EXPECT_EQ(plan.kernels[k].members, sites({uint32_t(k + 2)}));
  }
  // Every op reads its operands and writes its result:
  // mx 32768 + 4 + 256, mxb 256 + 32768, d 2·32768 + 32768, e 2·32768,
  // sm 32768 + 4 + 256, smb 256 + 32768, p 3·32768.
  const double bytes[] = {33028, 33024, 98304, 65536, 33028, 33024, 98304};
  double total = 0;
  for (size_t k = 0; k < 7; ++k) {
    EXPECT_DOUBLE_EQ(sim.kernelBytes(k), bytes[k]) << "kernel " << k;
    EXPECT_DOUBLE_EQ(sim.kernelSeconds(k), bytes[k] * 1e-12) << "kernel " << k;  // all memory-bound
    total += bytes[k];
  }
  // 394248 bytes against the fused 33028 + 33284 + 66048 = 132360.
  EXPECT_DOUBLE_EQ(total, 394248);
  EXPECT_DOUBLE_EQ(s.stepSeconds, 394248e-12);
}

}  // namespace
}  // namespace autopart
