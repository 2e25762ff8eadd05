// RUN: autopart-opt %s -split-input-file -sdy-propagation-pipeline | FileCheck %s
// RUN: autopart-opt %s -split-input-file -sdy-propagation-pipeline='dedup-functions-fully=true' | FileCheck %s --check-prefix=DEDUP

// The call-graph end of the pipeline: Shardy's propagation pipeline ends with
// its export pipeline, which starts with -sdy-sink-func-data-flow-edges,
// -sdy-unflatten-call-graph and -symbol-dce (docs/sdy_export_passes.md).
// Copies of one function (tagged `sdy.original_func_name`, as
// -sdy-flatten-call-graph or -sdy-export-named-computations leave them)
// that are sharded alike become one function again; a private function
// nothing calls any more is erased.

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Symbol DCE runs after unflattening: a private function without callers
// is erased, and so is what only it called; a public one stays (it is an
// entry point). -sdy-pre-order-funcs, which runs before propagation, has
// put the functions callers first (reversed post-order: @uncalled_public,
// the last root, comes first).
// CHECK-LABEL: func.func @uncalled_public(
// CHECK-LABEL: func.func @erases_uncalled_private_functions(
// CHECK:         call @used(
// CHECK:       func.func private @used(
// CHECK-NOT:   @dead
func.func @erases_uncalled_private_functions(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = call @used(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func private @used(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

func.func private @dead(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = call @dead_callee(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func private @dead_callee(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

func.func @uncalled_public(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Unflattening: @foo_0 is a copy of @foo with the same (empty) boundary
// shardings after propagation, so both calls go to @foo, the copy is
// erased and no function keeps the `sdy.original_func_name` tag.
// CHECK-LABEL: func.func @merges_copies_sharded_alike(
// CHECK:         call @foo(
// CHECK:         call @foo(
// CHECK:       func.func private @foo(
// CHECK-NOT:   @foo_0
// CHECK-NOT:   sdy.original_func_name
func.func @merges_copies_sharded_alike(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = call @foo(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = call @foo_0(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

func.func private @foo(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func private @foo_0(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {sdy.original_func_name = "foo"} {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Copies sharded differently stay apart (by default unflattening merges
// only equal boundary shardings): @bar ("a") keeps its call, @bar_1 ("b",
// like @bar_0) merges into @bar_0. With dedup-functions-fully=true, a
// propagation option Shardy hands to the export pipeline, the shardings are
// ignored: every call goes to the copy called most often, the others go.
// CHECK-LABEL: func.func @keeps_copies_sharded_differently(
// CHECK:         call @bar(
// CHECK:         call @bar_0(
// CHECK:         call @bar_0(
// CHECK:       func.func private @bar(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>})
// CHECK:       func.func private @bar_0(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"b"}, {}]>})
// CHECK-NOT:   @bar_1
// CHECK-NOT:   sdy.original_func_name
// DEDUP-LABEL: func.func @keeps_copies_sharded_differently(
// DEDUP:         call @[[F:bar(_[0-9])?]](
// DEDUP:         call @[[F]](
// DEDUP:         call @[[F]](
// DEDUP:       func.func private @[[F]](%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"b"}, {}]>})
// DEDUP-NOT:   func.func private @bar
func.func @keeps_copies_sharded_differently(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = call @bar(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = call @bar_0(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = call @bar_1(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

func.func private @bar(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func private @bar_0(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x8xf32> attributes {sdy.original_func_name = "bar"} {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

func.func private @bar_1(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x8xf32> attributes {sdy.original_func_name = "bar"} {
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Calls are crossed both ways: -sdy-import-func-calls turns the call into
// a named computation holding @baz's body, whose data-flow edges carry the
// negate's sharding back to the caller's argument and forward to the call's
// result and the abs; -sdy-export-named-computations turns it back into a
// call of @baz, with the computation's in_shardings as @baz's argument
// sharding (docs/sdy_import_passes.md, sdy_export_passes.md).
// CHECK-LABEL: func.func @propagates_across_calls(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>}
// CHECK-NEXT:    %[[CALL:.*]] = call @baz(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>]>}
// CHECK-NEXT:    stablehlo.abs %[[CALL]] {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>]>}
// CHECK:       func.func private @baz(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}, {}]>})
// CHECK-NOT:   sdy.named_computation
func.func @propagates_across_calls(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = call @baz(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.abs %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

func.func private @baz(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
