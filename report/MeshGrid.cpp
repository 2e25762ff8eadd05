#include "report/MeshGrid.h"

#include <algorithm>
#include <vector>

#include "report/Html.h"

namespace autopart {

namespace {

// Meshes with more devices are described, not drawn.
constexpr int64_t kMaxDrawnDevices = 1024;

}  // namespace

std::string meshGridHtml(const Mesh &mesh) {
  const int64_t devices = mesh.numDevices();
  // The last axis one way, the leading axes (row-major) the other; the
  // longer of the two runs across the page.
  const int64_t minor = mesh.axes.empty() ? 1 : std::max<int64_t>(mesh.axes.back().size, 1);
  const int64_t major = std::max<int64_t>(devices / minor, 1);
  const bool minorAcross = minor >= major;
  const int64_t cols = minorAcross ? minor : major, rows = minorAcross ? major : minor;
  std::string out = "<p class=\"note\">";
  for (size_t a = 0; a < mesh.axes.size(); ++a)
    out += std::string(a ? " &times; " : "") + "<b>" + htmlEscape(mesh.axes[a].name) + "</b> = " +
           std::to_string(mesh.axes[a].size);
  out += std::string(mesh.axes.empty() ? "No axes" : "") + ": " + std::to_string(devices) + " devices";
  if (mesh.axes.size() > 1)
    out += std::string(". ") + (minorAcross ? "Columns" : "Rows") + " are the coordinate on the last axis, " +
           (minorAcross ? "rows" : "columns") + " on the leading ones";
  out += "; each cell is a device (its id; hover for its coordinates).</p>\n";
  if (devices > kMaxDrawnDevices || devices < 1) return out;

  // Label of a position on the leading axes ("data=1", "a=0,b=3"; without
  // names "1", "0,3").
  auto majorLabel = [&](int64_t index, bool names = true) {
    std::string label;
    std::vector<int64_t> coord(mesh.axes.size() > 1 ? mesh.axes.size() - 1 : 0);
    for (size_t a = coord.size(); a-- > 0;) {
      coord[a] = index % std::max<int64_t>(mesh.axes[a].size, 1);
      index /= std::max<int64_t>(mesh.axes[a].size, 1);
    }
    for (size_t a = 0; a < coord.size(); ++a)
      label += (a ? "," : "") + (names ? mesh.axes[a].name + "=" : "") + std::to_string(coord[a]);
    return label;
  };
  std::string majorNames;
  for (size_t a = 0; a + 1 < mesh.axes.size(); ++a) majorNames += (a ? "," : "") + mesh.axes[a].name;
  const std::string minorName = mesh.axes.empty() ? "" : mesh.axes.back().name;
  auto minorLabel = [&](int64_t c) { return minorName.empty() ? std::string() : minorName + "=" + std::to_string(c); };

  const double cell = cols <= 8 ? 64 : cols <= 16 ? 48 : cols <= 32 ? 30 : cols <= 64 ? 15 : 8;
  const double cellH = std::max(cell * 0.62, 10.0), gap = cell >= 30 ? 6 : 2;
  const bool ids = cell >= 30;
  const double left = rows > 1 || mesh.axes.size() > 1 ? 120 : 10, top = 26;
  const double width = left + double(cols) * (cell + gap) + 10, height = top + double(rows) * (cellH + gap) + 6;
  out += "<svg id=\"mesh-grid\" viewBox=\"0 0 " + svgNumber(width) + " " + svgNumber(height) + "\" width=\"" +
         svgNumber(width) + "\" height=\"" + svgNumber(height) + "\" role=\"img\" aria-label=\"device mesh\">\n";
  // Column labels are coordinates, the axes they are on named before
  // them; every one while they fit, else every 2nd or 8th.
  const int64_t every = cell >= 48 ? 1 : cell >= 30 ? 2 : 8;
  const std::string across = minorAcross ? minorName : majorNames;
  if (!across.empty() && left > 10)
    out += "<text class=\"tick\" x=\"" + svgNumber(left - 8) + "\" y=\"16\" text-anchor=\"end\">" + htmlEscape(across) +
           " &#8594;</text>\n";
  for (int64_t c = 0; c < cols; c += every) {
    std::string label = minorAcross ? std::to_string(c) : majorLabel(c, false);
    out += "<text class=\"tick\" x=\"" + svgNumber(left + double(c) * (cell + gap) + cell / 2) +
           "\" y=\"16\" text-anchor=\"middle\">" + htmlEscape(label) + "</text>\n";
  }
  for (int64_t r = 0; r < rows; ++r) {
    const double y = top + double(r) * (cellH + gap);
    std::string rowLabel = minorAcross ? majorLabel(r) : minorLabel(r);
    if (!rowLabel.empty() && (rows <= 32 || r % 4 == 0))
      out += "<text class=\"tick\" x=\"" + svgNumber(left - 8) + "\" y=\"" + svgNumber(y + cellH / 2 + 4) +
             "\" text-anchor=\"end\">" + htmlEscape(rowLabel) + "</text>\n";
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t majorIndex = minorAcross ? r : c, minorIndex = minorAcross ? c : r;
      const int64_t index = majorIndex * minor + minorIndex;
      const int64_t id = index < int64_t(mesh.deviceIds.size()) ? mesh.deviceIds[size_t(index)] : index;
      // Alternate shades by the first axis's coordinate: its groups read as bands.
      const int64_t first = mesh.axes.empty() ? 0 : index / std::max<int64_t>(devices / mesh.axes.front().size, 1);
      std::string where = majorLabel(majorIndex);
      std::string coords = where + (where.empty() || minorName.empty() ? "" : ",") + minorLabel(minorIndex);
      const double x = left + double(c) * (cell + gap);
      out += "<g><title>device " + std::to_string(id) + (coords.empty() ? "" : ": " + htmlEscape(coords)) +
             "</title><rect x=\"" + svgNumber(x) + "\" y=\"" + svgNumber(y) + "\" width=\"" + svgNumber(cell) +
             "\" height=\"" + svgNumber(cellH) + "\" rx=\"" + svgNumber(cell >= 30 ? 4 : 2) + "\" fill=\"" +
             (first % 2 ? "#cddcf0" : "#e6eef9") + "\" stroke=\"#7f9cc6\"/>";
      if (ids)
        out += "<text x=\"" + svgNumber(x + cell / 2) + "\" y=\"" + svgNumber(y + cellH / 2 + 4) +
               "\" text-anchor=\"middle\" font-size=\"" + svgNumber(cell >= 48 ? 12 : 10) + "\">" + std::to_string(id) +
               "</text>";
      out += "</g>\n";
    }
  }
  return out + "</svg>\n";
}

}  // namespace autopart
