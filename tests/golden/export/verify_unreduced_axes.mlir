// RUN: autopart-opt %s -sdy-verify-unreduced-axes -split-input-file -verify-diagnostics

// Unreduced axes hold partial results: sdy_export_passes.md "Verifies that
// for every operation, if its operands have unreduced axes, the operation
// either explicitly reduces them (e.g., via sdy.reshard) or passes them
// through to its results (or is a bounding operation like func.call)".

sdy.mesh @mesh = <["x"=2, "y"=2]>

// An elementwise op drops the partial sums: wrong.
func.func @dropped(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.negate' op dropped unreduced axis 'y' without a blessed operation (e.g., sdy.reshard). This is an invalid transition from unreduced to reduced.}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A reshard reduces them first: fine, and so is carrying them through.
func.func @reshard_then_drop(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}], unreduced={"y"}>]>} : tensor<8xf32>
  %1 = sdy.reshard %0 <@mesh, [{"x"}]> : tensor<8xf32>
  %2 = stablehlo.abs %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// Partial maxima cannot silently become partial sums.
func.func @kind_changed(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced=max{"y"}>}) -> tensor<8xf32> {
  // expected-error@+1 {{'stablehlo.negate' op cannot change the reduction operator of kept unreduced axes from max to sum.}}
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}], unreduced={"y"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A reduce may introduce unreduced axes of its own reduction only.
func.func @reduce_introduces(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"x"}>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  // expected-error@+1 {{'stablehlo.reduce' op cannot introduce 'max' unreduced axes. Expected 'sum'.}}
  %1 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced=max{"x"}>]>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A return must give the function's declared unreduced axes.
func.func @return_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) {
  // expected-error@+1 {{'func.return' op has unreduced axes mismatch for 'y' at return value 0 without a blessed operation}}
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

func.func private @callee(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// A call's operands must match its callee's arguments exactly.
func.func @call_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) -> tensor<8xf32> {
  // expected-error@+1 {{'func.call' op has unreduced axes mismatch for 'y' at call argument 0.}}
  %0 = func.call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// An all-reduce needs partial values to reduce.
func.func @all_reduce_unsharded(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.all_reduce' op operand must be sharded.}}
  %0 = sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_a = <["x"=2, "y"=2]>
sdy.mesh @mesh_b = <["z"=2, "w"=2]>

// Different meshes are not compared.
func.func @different_meshes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a, [{"y"}], unreduced={"x"}>}) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh_b, [{"z"}], unreduced={"w"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
