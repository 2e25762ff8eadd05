#include "verify/DeviceCount.h"

namespace autopart {

bool verifyOneDeviceCount(const Module &m, Diagnostics &diags) {
  OpId first = kNone;
  int64_t devices = 0;
  std::string firstName;
  for (OpId op : m.blocks[m.regions[m.region(m.top, 0)].blocks[0]].ops) {
    if (!m.isa(op, "sdy.mesh")) continue;
    AttrId a = m.attr(op, "mesh");
    if (a == kNoAttr || m.attrs.kind(a) != AttrKind::Mesh) continue;
    const Mesh &mesh = *m.attrs.get(a).mesh;
    if (mesh.isMaximal() || mesh.numDevices() <= 1) continue;
    std::string name(m.attrs.stringValue(m.attr(op, "sym_name")));
    if (first == kNone) {
      first = op;
      devices = mesh.numDevices();
      firstName = name;
      continue;
    }
    if (mesh.numDevices() == devices) continue;
    diags.error(m, op,
                "mesh @" + name + " has " + std::to_string(mesh.numDevices()) + " devices, but mesh @" + firstName +
                    " has " + std::to_string(devices) +
                    ": XLA partitions a module over one number of devices (maximal meshes aside)");
    return false;
  }
  return true;
}

}  // namespace autopart
