// RUN: not autopart-opt %s -sdy-insert-explicit-reshards='enable-full-vesion=false' 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: not autopart-opt %s -sdy-lift-inlined-meshes='dedup=true' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not autopart-opt %s -sdy-resolve-permutation-factors='replica-count=two' 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not autopart-opt %s -sdy-basic-propagate -sdy-import-func-calls='add-data-flow-edges-on-named-computations=no' 2>&1 | FileCheck %s --check-prefix=BOOL
// RUN: autopart-opt %s -sdy-insert-explicit-reshards='enable-full-version=false' | FileCheck %s --check-prefix=MINIMAL
// RUN: autopart-opt --help 2>&1 | FileCheck %s --check-prefix=HELP

// Each pass declares its options (ir/Pass.h, PassOptionSpec): autopart-opt
// checks what the command line gives before it reads the input, as mlir-opt
// does, so a misspelt option is an error naming what the pass takes instead
// of a run at the defaults, and --help lists every pass's options.

// TYPO: autopart-opt: error: sdy-insert-explicit-reshards: unknown option 'enable-full-vesion'; it takes enable-full-version, avoid-reshards-on-named-computations
// NONE: autopart-opt: error: sdy-lift-inlined-meshes: unknown option 'dedup' (the pass takes no options)
// INT: autopart-opt: error: sdy-resolve-permutation-factors: option 'replica-count' takes an integer, not 'two'
// A bad option of a later pass stops the run before any pass: nothing is printed.
// BOOL-NOT: sdy.mesh
// BOOL: autopart-opt: error: sdy-import-func-calls: option 'add-data-flow-edges-on-named-computations' takes true or false, not 'no'
// BOOL-NOT: sdy.mesh

// HELP-LABEL: -sdy-insert-explicit-reshards Insert
// HELP-NEXT: enable-full-version=<bool>
// HELP-NEXT: avoid-reshards-on-named-computations=<bool>
// HELP-LABEL: -sdy-per-instruction-partitioning Wraps
// HELP-NEXT: filter=<list>
// HELP-LABEL: -sdy-propagation-pipeline Shardy
// HELP: propagation-strategy=<aggressive|basic>
// HELP: inline-meshes=<bool>

sdy.mesh @mesh = <["a"=2]>

// MINIMAL-LABEL: func @add
func.func @add(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // MINIMAL-NEXT: stablehlo.add
  %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
