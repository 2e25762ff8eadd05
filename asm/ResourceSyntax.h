// The file-level resource block MLIR prints after a module, holding the data
// of `dense_resource<key>` constants:
//
//   {-#
//     dialect_resources: {
//       builtin: {
//         w0: "0x040000000000803F00000040"   // alignment 4, then f32 1.0, 2.0
//       }
//     }
//   #-}
//
// parseResourceBlock collects the `builtin` entries (key -> the quoted hex
// text, without quotes); other dialects' and `external_resources` entries are
// skipped (the block is printed back whole).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace autopart {

// `block` runs from `{-#` to `#-}`. On a malformed block returns false with
// `errorOffset` (into `block`) and `error` set.
bool parseResourceBlock(std::string_view block, std::vector<std::pair<std::string_view, std::string_view>> &blobs,
                        size_t &errorOffset, std::string &error);

}  // namespace autopart
