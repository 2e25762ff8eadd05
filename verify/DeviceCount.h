// XLA partitions a module over one number of devices (its num_partitions),
// so every mesh of a program handed to XLA must have that many devices;
// only maximal meshes (one device id, an op's placement) stand apart.
// Shardy's dialect does not require it (its tests mix meshes of 4 and 8
// devices in one module), so this is not one of verifyModule's checks: it
// runs on what `plan` and `search` read and write.
//
//   sdy.mesh @a = <["x"=8]>
//   sdy.mesh @b = <["y"=4]>           -> error at @b: mesh @b has 4 devices,
//   sdy.mesh @m = <[], device_ids=[3]>   but mesh @a has 8 ...   (@m: fine)
#pragma once

#include "ir/Module.h"

namespace autopart {

bool verifyOneDeviceCount(const Module &m, Diagnostics &diags);

}  // namespace autopart
