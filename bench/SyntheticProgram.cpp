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

}  // namespace autopart::bench
