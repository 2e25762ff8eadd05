#include "bench/SyntheticProgram.h"

namespace autopart::bench {

std::string syntheticChain(int64_t numOps) {
  std::string s;
  s.reserve(size_t(numOps) * 120 + 512);
  s += "module @jit_chain attributes {mhlo.num_partitions = 1 : i32} {\n";
  s += "  func.func public @main(%arg0: tensor<64x256xf32>, %arg1: tensor<256x256xf32>, "
       "%arg2: tensor<256xf32>) -> tensor<64x256xf32> {\n";
  s += "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<64x256xf32>\n";
  std::string cur = "%arg0";
  int64_t id = 0;
  int64_t emitted = 1;
  while (emitted + 4 <= numOps) {
    std::string a = "%" + std::to_string(id++), b = "%" + std::to_string(id++),
                c = "%" + std::to_string(id++), d = "%" + std::to_string(id++);
    s += "    " + a + " = stablehlo.dot_general " + cur +
         ", %arg1, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>\n";
    s += "    " + b + " = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<256xf32>) -> tensor<64x256xf32>\n";
    s += "    " + c + " = stablehlo.add " + a + ", " + b + " : tensor<64x256xf32>\n";
    s += "    " + d + " = stablehlo.maximum " + c + ", %cst : tensor<64x256xf32>\n";
    cur = d;
    emitted += 4;
  }
  s += "    return " + cur + " : tensor<64x256xf32>\n  }\n}\n";
  return s;
}

std::string propagationChain(int64_t numOps) {
  const std::string x = "tensor<64x256xf32>", y = "tensor<64x16x16xf32>";
  std::string s;
  s.reserve(size_t(numOps) * 110 + 512);
  s += "module @jit_chain {\n  sdy.mesh @mesh = <[\"data\"=2, \"model\"=4]>\n";
  s += "  func.func public @main(%arg0: " + x + ", %arg1: tensor<256x256xf32>) -> (" + x +
       " {sdy.sharding = #sdy.sharding<@mesh, [{\"data\"}, {\"model\"}]>}) {\n";
  std::string cur = "%arg0";
  int64_t id = 0;
  for (int64_t emitted = 0; emitted + 6 <= numOps; emitted += 6) {
    std::string v[6];
    for (std::string &name : v) name = "%" + std::to_string(id++);
    s += "    " + v[0] + " = stablehlo.dot_general " + cur + ", %arg1, contracting_dims = [1] x [0] : (" + x +
         ", tensor<256x256xf32>) -> " + x + "\n";
    s += "    " + v[1] + " = stablehlo.reshape " + v[0] + " : (" + x + ") -> " + y + "\n";
    s += "    " + v[2] + " = stablehlo.transpose " + v[1] + ", dims = [0, 2, 1] : (" + y + ") -> " + y + "\n";
    s += "    " + v[3] + " = stablehlo.reshape " + v[2] + " : (" + y + ") -> " + x + "\n";
    s += "    " + v[4] + " = stablehlo.add " + v[3] + ", " + cur + " : " + x + "\n";
    s += "    " + v[5] + " = stablehlo.negate " + v[4] + " : " + x + "\n";
    cur = v[5];
  }
  s += "    return " + cur + " : " + x + "\n  }\n}\n";
  return s;
}

std::string reshardChain(int64_t numOps) {
  std::string s;
  s.reserve(size_t(numOps) * 130 + 512);
  s += "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n";
  s += "func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> "
       "tensor<8x8xf32> {\n";
  std::string cur = "%arg0";
  for (int64_t i = 0; i < numOps; ++i) {
    std::string v = "%" + std::to_string(i);
    const char *dims = i % 2 ? "[{\"a\"}, {}]" : "[{}, {\"a\"}]";
    s += "  " + v + " = stablehlo.add " + cur + ", " + cur + " {sdy.sharding = #sdy.sharding_per_value<[<@mesh, " +
         dims + ">]>} : tensor<8x8xf32>\n";
    cur = v;
  }
  s += "  return " + cur + " : tensor<8x8xf32>\n}\n";
  return s;
}

}  // namespace autopart::bench
