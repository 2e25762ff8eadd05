// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 | autopart-opt - -autopart-remat=policy=selective | FileCheck %s --check-prefix=SEL
// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 | autopart plan - --mesh data=2 --tactics dp,remat:full 2>&1 >/dev/null | FileCheck %s --check-prefix=FULL
// RUN: autopart gen gpt --layers 2 --d-model 8 --heads 2 --head-dim 4 --ffn 16 --seq 4 --batch 2 --vocab 16 | autopart plan - --mesh data=2 --tactics dp,remat:full,microbatch:2 -o - 2>/dev/null | autopart simulate - --device a100-80gb | FileCheck %s --check-prefix=BOTH

// A two-layer GPT step from `autopart gen gpt` (the same ops as a JAX
// transformer: the attention scores are q.k^T over one sequence name).

// selective (Korthikanti et al.): the scores are recomputed from the saved
// q and k, one barrier per layer, in the backward pass (layer 1 first).
// SEL-COUNT-2: stablehlo.optimization_barrier %{{.*}}, %{{.*}} : tensor<2x4x2x4xbf16>, tensor<2x4x2x4xbf16>
// SEL-NOT:     stablehlo.optimization_barrier
// SEL:         return

// full: one checkpoint per layer (the layer's input), every saved
// activation recomputed.
// FULL: levers remat:full: remat full: 33 of 33 saved activations recomputed ({{[0-9]+}} ops, 2 layer boundaries)

// Both levers together, planned and priced.
// BOTH: step time
// BOTH: peak memory
