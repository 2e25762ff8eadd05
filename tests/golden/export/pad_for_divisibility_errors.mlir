// RUN: autopart-opt %s -sdy-pad-for-divisibility -split-input-file -verify-diagnostics

// Programs -sdy-pad-for-divisibility cannot pad ("pads tensors with
// non-divisible shardings to divisible shapes", sdy_export_passes.md): the
// entry function's signature is the program's interface, and some ops have
// no padded form that keeps their meaning.

sdy.mesh @mesh = <["x"=4]>

// The entry function's arguments come from outside the program: nothing can
// pad them, so a non-divisible one is an error.
// expected-error @+2 {{argument #0 has a non-divisible sharding}}
// expected-error @+1 {{failed to legalize operation 'func.func'}}
func.func @main(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<6xf32> {
  return %arg0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>

// The same holds for the entry function's results.
// expected-error @+2 {{result #0 has a non-divisible sharding}}
// expected-error @+1 {{failed to legalize operation 'func.func'}}
func.func @main(%arg0: tensor<6xf32>) -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  return %arg0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>

// A reduce over a grown dimension needs its body's identity in the padding;
// a body that is not one elementwise op has none to offer.
func.func @reduce_without_identity(%arg0: tensor<4x6xf32>) -> tensor<4xf32> {
  %0 = sdy.all_slice [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<4x6xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-error @+2 {{unsupported reduction operation in reduce body}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.reduce'}}
  %1 = stablehlo.reduce(%0 init: %cst) across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %d = stablehlo.subtract %a, %b : tensor<f32>
    %r = stablehlo.multiply %d, %d : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }
  return %1 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>

// A reshape whose result must grow along a dimension its operand does not
// pass through: no padded operand holds as many elements as that result.
func.func @reshape_not_divisible(%arg0: tensor<6x4xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{participating reshape dimensions are not divisible}}
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %1 = sdy.all_gather [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {}]> : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>

// A slice near the end of its operand cannot widen to the divisible size.
func.func @slice_cannot_widen(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{cannot widen dimension 0 to 4 elements}}
  %0 = stablehlo.slice %arg0 [5:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<3xf32>
  %1 = sdy.all_gather [{"x"}] %0 out_sharding=<@mesh, [{}]> : tensor<3xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %2 = stablehlo.pad %1, %cst, low = [0], high = [5], interior = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>

// A convolution whose output splits a windowed dimension that its input does
// not: padding the input cannot make that output dimension divisible.
func.func @convolution_output_window_split(%arg0: tensor<1x7x2xf32>, %arg1: tensor<3x2x2xf32>) -> tensor<1x5x2xf32> {
  // expected-error @+2 {{output spatial size smaller than the divisible size}}
  // expected-error @+1 {{failed to legalize operation 'stablehlo.convolution'}}
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}, {}]>]>} : (tensor<1x7x2xf32>, tensor<3x2x2xf32>) -> tensor<1x5x2xf32>
  %1 = sdy.all_gather [{}, {"x"}, {}] %0 out_sharding=<@mesh, [{}, {}, {}]> : tensor<1x5x2xf32>
  return %1 : tensor<1x5x2xf32>
}
