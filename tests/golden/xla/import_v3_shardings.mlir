// RUN: autopart-opt %s -xla-sdy-import-shardings -split-input-file | FileCheck %s

// HloSharding V3 strings name their mesh: it becomes the module's mesh with
// the axis names as written, and each string the Shardy sharding it spells.

// CHECK-LABEL: sdy.mesh @mesh = <["x"=8, "y"=4]>
// CHECK-LABEL: func @v3_named_axes(
// CHECK-SAME: %arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}
// CHECK-SAME: -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>})
func.func @v3_named_axes(%arg0: tensor<16x32xf32> {mhlo.sharding = "{mesh['x'=8,'y'=4], [{'y'}, {}]}"})
    -> (tensor<16x32xf32> {mhlo.sharding = "{mesh['x'=8,'y'=4], [{'x', 'y'}, {}]}"}) {
  return %arg0 : tensor<16x32xf32>
}

// -----

// CHECK-LABEL: sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
// CHECK-LABEL: func @v3_device_ids_and_open_dims(
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>}
func.func @v3_device_ids_and_open_dims(%arg0: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=2,'y'=2], device_ids=(3,2,1,0), [{'x', ?}, {?}]}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: sdy.mesh @mesh = <["x"=8, "y"=2]>
// CHECK-LABEL: func @v3_sub_axes_replicated_unreduced(
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}], replicated={"y"}, unreduced={"x":(2)4}>}
func.func @v3_sub_axes_replicated_unreduced(%arg0: tensor<8x8xf32> {mhlo.sharding = "{mesh['x'=8,'y'=2], [{'x':(1)2}, {}], replicated={'y'}, unreduced={'x':(2)4}}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

// `replicated` / `manual` for the whole value, `single_device` for one
// device, and a V2 string placed on the mesh the V3 strings name.

// CHECK-LABEL: sdy.mesh @mesh = <["a"=2, "b"=2]>
// CHECK: sdy.mesh @single_device_1 = <[], device_ids=[1]>
// CHECK-LABEL: func @v3_whole_value_forms_and_v2_beside(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK-SAME: %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}
// CHECK-SAME: %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@single_device_1, []>}
// CHECK-SAME: %arg3: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a"}]>}
func.func @v3_whole_value_forms_and_v2_beside(
    %arg0: tensor<8xf32> {mhlo.sharding = "{mesh['a'=2,'b'=2], replicated}"},
    %arg1: tensor<8xf32> {mhlo.sharding = "{mesh['a'=2,'b'=2], manual}"},
    %arg2: tensor<8xf32> {mhlo.sharding = "{single_device[device_id=1]}"},
    %arg3: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"}) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
