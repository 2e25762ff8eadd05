// Executor throughput (exec/): a 1024^3 f32 dot in GFLOP/s, a ResNet-50
// stage-2 convolution (8x56x56x64 * 3x3x64x64, SAME) in GFLOP/s, elementwise
// add in GB/s moved (two reads, one write), and one MNIST MLP train step
// (../shared/models/jax_mnist_mlp_train_step.mlir) end to end, and the same
// for the MNIST CNN train step.
//
//   build/bin/autopart_bench --benchmark_filter=Exec
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "api/Program.h"
#include "exec/Run.h"

using namespace autopart;

namespace {

std::unique_ptr<Module> parse(const std::string &text) {
  Diagnostics diags;
  std::unique_ptr<Module> m = parseProgram({text, "bench.mlir"}, diags);
  if (!m) std::abort();
  return m;
}

// Runs @main of `text` on random inputs once per iteration.
void runMain(benchmark::State &state, const std::string &text, double flopsOrBytes, bool bytes) {
  std::unique_ptr<Module> m = parse(text);
  OpId main = m->lookupSymbol("main");
  std::vector<exec::TensorPtr> args;
  uint64_t seed = 1;
  for (ValueId a : FuncView{*m, main}.args()) args.push_back(exec::randomTensor(m->types, m->type(a), seed++));
  for (auto _ : state) {
    exec::Interpreter I(*m);
    std::vector<exec::TensorPtr> r = I.callFunction(main, args);
    benchmark::DoNotOptimize(r[0]->bytes.data());
  }
  if (bytes) state.counters["GB/s"] = benchmark::Counter(flopsOrBytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  else state.counters["GFLOP/s"] = benchmark::Counter(flopsOrBytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ExecDot1024(benchmark::State &state) {
  std::string text = R"(func.func @main(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
})";
  runMain(state, text, 2.0 * 1024 * 1024 * 1024, false);
}
BENCHMARK(BM_ExecDot1024)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ExecConvResNetStage2(benchmark::State &state) {
  std::string text = R"(func.func @main(%x: tensor<8x56x56x64xf32>, %k: tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32> {
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x56x56x64xf32>
  return %0 : tensor<8x56x56x64xf32>
})";
  runMain(state, text, 2.0 * 8 * 56 * 56 * 64 * 64 * 9, false);
}
BENCHMARK(BM_ExecConvResNetStage2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ExecElementwiseAdd(benchmark::State &state) {
  std::string text = R"(func.func @main(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = stablehlo.add %a, %b : tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
})";
  runMain(state, text, 3.0 * 4 * 4096 * 4096, true);
}
BENCHMARK(BM_ExecElementwiseAdd)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ExecMnistTrainStep(benchmark::State &state) {
  std::ifstream in(AUTOPART_SHARED_DIR "/models/jax_mnist_mlp_train_step.mlir");
  std::stringstream ss;
  ss << in.rdbuf();
  if (ss.str().empty()) {
    state.SkipWithError("jax_mnist_mlp_train_step.mlir not found");
    return;
  }
  // 2 * (128*784*512 + 128*512*512 + 128*512*10) forward, about twice that backward.
  runMain(state, ss.str(), 3 * 2.0 * 128 * (784 * 512 + 512 * 512 + 512 * 10), false);
}
BENCHMARK(BM_ExecMnistTrainStep)->Unit(benchmark::kMillisecond)->UseRealTime();

// The MNIST CNN train step (../shared/models/jax_mnist_cnn_train_step.mlir):
// two 3x3 convolutions (1->32, 32->32 channels at 28x28), a 2x2 max-pool
// (reduce_window, select_and_scatter backward) and dense 6272-512-512-10,
// batch 128.
void BM_ExecMnistCnnTrainStep(benchmark::State &state) {
  std::ifstream in(AUTOPART_SHARED_DIR "/models/jax_mnist_cnn_train_step.mlir");
  std::stringstream ss;
  ss << in.rdbuf();
  if (ss.str().empty()) {
    state.SkipWithError("jax_mnist_cnn_train_step.mlir not found");
    return;
  }
  // Convolutions: conv2 forward, its data and weight gradients (3 x
  // 2*128*784*32*288), conv1 forward and weight gradient (2 x 2*128*784*32*9);
  // dense layers forward + two backward products.
  double conv = 3 * 2.0 * 128 * 784 * 32 * 288 + 2 * 2.0 * 128 * 784 * 32 * 9;
  double dense = 3 * 2.0 * 128 * (6272 * 512 + 512 * 512 + 512 * 10);
  runMain(state, ss.str(), conv + dense, false);
}
BENCHMARK(BM_ExecMnistCnnTrainStep)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
