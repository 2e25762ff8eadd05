// The device mesh drawn as a grid for the HTML report: one cell per device
// (its id, its coordinates on hover), the last axis one way and the leading
// axes the other, the longer side across the page, cells shaded in bands of
// the first axis. Meshes of more than 1024 devices are described, not drawn.
//
//   meshGridHtml(<["data"=2, "model"=4]>)
//     -> <p class="note"><b>data</b> = 2 &times; <b>model</b> = 4: 8 devices. ...</p>
//        <svg id="mesh-grid" ...> 2 rows of 4 cells, ids 0..7 </svg>
#pragma once

#include <string>

#include "ir/Sharding.h"

namespace autopart {

// The note describing the mesh and, for up to 1024 devices, its SVG grid.
std::string meshGridHtml(const Mesh &mesh);

}  // namespace autopart
