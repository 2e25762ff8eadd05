// The program two propagation tests share: a while loop carrying a tensor
// and a counter, its tensor result used after the loop.
#pragma once

namespace autopart::testing {

inline constexpr const char *kWhile = R"(
sdy.mesh @mesh = <["a"=2]>
func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<8xf32>, tensor<i32>
   cond {
    %2 = stablehlo.compare  LT, %iterArg_0, %iterArg_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<8xf32>, tensor<i32>
  }
  %3 = stablehlo.abs %1#0 : tensor<8xf32>
  return %3 : tensor<8xf32>
}
)";

}  // namespace autopart::testing
