#include "report/HtmlReport.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "analysis/ArgumentRoles.h"
#include "report/Html.h"
#include "report/MeshGrid.h"
#include "report/PageAssets.h"
#include "report/ReportFields.h"
#include "sim/LocalSize.h"
#include "sim/ValueCategories.h"
#include "support/Format.h"

namespace autopart {
namespace {

using namespace report;

// Source lines are embedded cut to this many characters: planned programs
// carry long attribute dictionaries and constants on one line.
constexpr size_t kMaxSourceLine = 400;

const char *const kCategoryColors[kNumMemoryCategories] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                                             "#59a14f", "#edc948", "#b07aa1"};

// --- The page -------------------------------------------------------------

class Page {
public:
  explicit Page(const HtmlReportInput &in) : in_(in), m_(in.module) {
    if (m_) {
      ownShardings_ = in.shardings ? nullptr : std::make_unique<ShardingMap>(ShardingMap::fromModule(*m_));
      shardings_ = in.shardings ? in.shardings : ownShardings_.get();
      entry_ = in.entry;
      if (entry_ == kNone) {
        std::vector<OpId> funcs = m_->functions();
        for (OpId f : funcs)
          if (FuncView{*m_, f}.name() == "main") entry_ = f;
        if (entry_ == kNone && !funcs.empty()) entry_ = funcs.front();
      }
      if (entry_ != kNone && FuncView{*m_, entry_}.entry() == kNone) entry_ = kNone;
      for (const auto &[name, mesh] : shardings_->meshes())
        if (!mesh_ || mesh.numDevices() > mesh_->numDevices()) mesh_ = &mesh;
      if (m_->source) {
        const std::string &src = *m_->source;
        lineStarts_.push_back(0);
        for (size_t i = 0; i < src.size(); ++i)
          if (src[i] == '\n') lineStarts_.push_back(i + 1);
      }
    }
  }

  std::string render() {
    const nlohmann::json &sim = in_.simulation;
    std::string body;
    body += header();
    if (sim.is_object()) body += summaryTiles();
    body += meshSection();
    if (sim.is_object()) {
      body += stepSection();
      body += memorySection();
      body += costliestSection();
    }
    if (m_ && entry_ != kNone) body += argumentSection();
    if (in_.search.is_object()) body += searchSection();
    body += sourceSection();

    nlohmann::json data = {{"expect",
                            {{"memory_points", memoryPoints_},
                             {"arguments", argumentRows_},
                             {"search", searchRows_},
                             {"step_bars", stepBars_}}},
                           {"simulation", in_.simulation},
                           {"search", in_.search}};
    std::string title = in_.title.empty() ? "autopart plan report" : in_.title;
    std::string page;
    page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    // Nothing may be fetched: not a font, not an image, not a script.
    page += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n";
    page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    page += "<title>" + htmlEscape(title) + "</title>\n";
    page += "<script>" + std::string(kReportErrorTrap) + "</script>\n";
    page += "<style>" + std::string(kReportCss) + "</style>\n</head>\n<body>\n<main>\n";
    page += body;
    page += "<footer><p>Written by autopart. Times and bytes are the simulator's (docs/cost-model.md); "
            "what each number means: docs/report.md.</p>\n"
            "<details><summary id=\"self-check-summary\">page self-check</summary>"
            "<pre id=\"self-check\"></pre></details></footer>\n";
    page += "</main>\n";
    page += "<div id=\"source-viewer\" hidden><div class=\"hd\"><span class=\"where\"></span>"
            "<button type=\"button\">close</button></div><pre></pre></div>\n";
    page += "<script type=\"application/json\" id=\"autopart-data\">" + scriptSafeJson(data) + "</script>\n";
    page += "<script>" + std::string(kReportScript) + "</script>\n</body>\n</html>\n";
    return page;
  }

private:
  // --- Locations ----------------------------------------------------------

  // `file:line:col` of the module's file: a link to the embedded line.
  struct Location {
    size_t begin = 0, end = 0;  // in the text
    uint32_t line = 0, col = 0;
  };

  std::optional<Location> findLocation(const std::string &s, size_t from) const {
    if (!m_ || m_->fileName.empty()) return std::nullopt;
    const std::string &file = m_->fileName;
    for (size_t at = s.find(file, from); at != std::string::npos; at = s.find(file, at + 1)) {
      size_t i = at + file.size();
      auto digits = [&](uint32_t &out) {
        if (i >= s.size() || s[i] != ':') return false;
        size_t start = ++i;
        uint64_t v = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 9) v = v * 10 + (s[i++] - '0');
        out = uint32_t(v);
        return i > start;
      };
      Location loc;
      if (digits(loc.line) && digits(loc.col) && loc.line >= 1 && loc.line <= lineStarts_.size()) {
        loc.begin = at;
        loc.end = i;
        return loc;
      }
    }
    return std::nullopt;
  }

  // Escaped text with every location of the module's file made a link.
  std::string linked(const std::string &s) {
    std::string out;
    size_t pos = 0;
    while (std::optional<Location> loc = findLocation(s, pos)) {
      out += htmlEscape(s.substr(pos, loc->begin - pos));
      lines_.insert(loc->line);
      out += "<a class=\"loc\" href=\"#L" + std::to_string(loc->line) + "\" data-line=\"" +
             std::to_string(loc->line) + "\" data-col=\"" + std::to_string(loc->col) + "\">" +
             htmlEscape(s.substr(loc->begin, loc->end - loc->begin)) + "</a>";
      pos = loc->end;
    }
    return out + htmlEscape(s.substr(pos));
  }

  std::string lineText(uint32_t line) const {
    const std::string &src = *m_->source;
    size_t begin = lineStarts_[line - 1];
    size_t end = line < lineStarts_.size() ? lineStarts_[line] - 1 : src.size();
    std::string s = src.substr(begin, end - begin);
    if (!s.empty() && s.back() == '\r') s.pop_back();
    if (s.size() > kMaxSourceLine) {
      // Cut at a character boundary, not inside a UTF-8 sequence.
      size_t cut = kMaxSourceLine;
      while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
      s = s.substr(0, cut) + " \u2026";
    }
    return s;
  }

  // --- Sections -----------------------------------------------------------

  std::string header() {
    const nlohmann::json &sim = in_.simulation;
    std::string title = in_.title.empty() ? "autopart plan report" : in_.title;
    std::string sub;
    std::string device = text(sim, "device");
    if (device.empty()) device = text(in_.search, "device");
    if (!device.empty()) sub += "device " + htmlEscape(device);
    if (mesh_) sub += std::string(sub.empty() ? "" : " &middot; ") + "mesh " + htmlEscape(meshText(*mesh_)) + ", " +
                      std::to_string(mesh_->numDevices()) + " devices";
    if (m_ && !m_->fileName.empty()) sub += std::string(sub.empty() ? "" : " &middot; ") + htmlEscape(m_->fileName);
    std::string out = "<header class=\"top\"><h1>" + htmlEscape(title) + "</h1>";
    if (!sub.empty()) out += "<div class=\"sub\">" + sub + "</div>";
    out += "</header>\n";
    for (const nlohmann::json &w : array(sim, "warnings"))
      if (w.is_string()) out += "<div class=\"warn\">warning: " + linked(w.get<std::string>()) + "</div>\n";
    return out;
  }

  static std::string meshText(const Mesh &mesh) {
    std::string s;
    for (const MeshAxis &a : mesh.axes) s += (s.empty() ? "" : ",") + a.name + "=" + std::to_string(a.size);
    return s.empty() ? "1 device" : s;
  }

  std::string tile(const std::string &key, const std::string &value, const std::string &detail) {
    return "<div class=\"tile\"><div class=\"k\">" + htmlEscape(key) + "</div><div class=\"v\">" + value +
           "</div><div class=\"d\">" + detail + "</div></div>\n";
  }

  std::string summaryTiles() {
    const nlohmann::json &sim = in_.simulation;
    const nlohmann::json &mem = field(sim, "memory");
    double step = numberOr(sim, "step_seconds"), compute = numberOr(sim, "compute_seconds");
    double comm = numberOr(sim, "communication_seconds");
    double exposed = numberOr(sim, "exposed_communication_seconds", comm);
    double peak = numberOr(mem, "peak_bytes"), capacity = numberOr(mem, "capacity_bytes");
    bool fits = field(mem, "fits").is_boolean() ? field(mem, "fits").get<bool>() : peak <= capacity;
    std::string out = "<div class=\"tiles\">\n";
    out += tile("step time", htmlEscape(formatSeconds(step)), "compute + exposed communication");
    out += tile("compute", htmlEscape(formatSeconds(compute)), htmlEscape(percent(compute, step)) + " of the step");
    out += tile("communication", htmlEscape(formatSeconds(comm)),
                htmlEscape(formatSeconds(exposed)) + " exposed, " + htmlEscape(formatSeconds(withoutResidue(comm - exposed))) +
                    " hidden");
    out += tile("peak memory", htmlEscape(formatBytes(peak)),
                "of " + htmlEscape(formatBytes(capacity)) + " " +
                    (fits ? "<span class=\"badge ok\">fits</span>" : "<span class=\"badge bad\">does not fit</span>"));
    out += tile("roofline", htmlEscape(fixed(numberOr(sim, "roofline_fraction"), 3)),
                "FLOPs / (devices &times; peak) / step");
    out += tile("FLOPs per device", htmlEscape(count(numberOr(sim, "local_flops"))),
                htmlEscape(count(numberOr(sim, "global_flops"))) + " in all, " +
                    std::to_string(int64_t(numberOr(sim, "kernel_count"))) + " kernels");
    return out + "</div>\n";
  }

  std::string meshSection() {
    std::string out = "<section class=\"card\" id=\"mesh\"><h2>Mesh</h2>\n";
    if (!mesh_) {
      std::string fromSim = text(in_.simulation, "mesh");
      out += "<p class=\"note\">" +
             (fromSim.empty() ? std::string("No mesh: one device.") : "Mesh " + htmlEscape(fromSim) + ".") + "</p>";
      return out + "</section>\n";
    }
    return out + meshGridHtml(*mesh_) + "</section>\n";
  }

  std::string stepSection() {
    const nlohmann::json &sim = in_.simulation;
    double step = numberOr(sim, "step_seconds"), compute = numberOr(sim, "compute_seconds");
    double comm = numberOr(sim, "communication_seconds");
    double exposed = withoutResidue(std::clamp(numberOr(sim, "exposed_communication_seconds", comm), 0.0, comm));
    double hidden = withoutResidue(comm - exposed);
    double longest = std::max({step, compute + exposed, comm, 1e-30});
    // (Not a structured binding: clang 14 cannot capture one in a lambda.)
    const std::pair<double, double> axis = niceAxis(longest, 5, secondUnit(longest));
    const double tick = axis.first, scale = axis.second;
    const double left = 130, barW = 820, barH = 26;
    auto x = [&](double s) { return left + barW * s / scale; };
    std::string out = "<section class=\"card\" id=\"step\"><h2>Step time</h2>\n";
    out += "<p class=\"note\">The step is compute plus the communication the schedule could not hide behind it; "
           "hidden communication runs on its own stream while compute runs.</p>\n";
    out += "<svg id=\"step-bars\" viewBox=\"0 0 980 120\" width=\"100%\" role=\"img\" aria-label=\"step time\">\n";
    auto seg = [&](double from, double len, double y, const char *color, const std::string &what) {
      if (len <= 0) return std::string();
      return "<rect class=\"seg\" x=\"" + svgNumber(x(from)) + "\" y=\"" + svgNumber(y) + "\" width=\"" +
             svgNumber(std::max(1.0, x(from + len) - x(from))) + "\" height=\"" + svgNumber(barH) + "\" fill=\"" + color +
             "\"><title>" + htmlEscape(what) + "</title></rect>\n";
    };
    out += "<text x=\"" + svgNumber(left - 10) + "\" y=\"" + svgNumber(18 + barH / 2 + 4) + "\" text-anchor=\"end\">step</text>\n";
    out += seg(0, compute, 18, "var(--compute)", "compute " + formatSeconds(compute));
    out += seg(compute, exposed, 18, "var(--exposed)", "exposed communication " + formatSeconds(exposed));
    out += "<text x=\"" + svgNumber(left - 10) + "\" y=\"" + svgNumber(58 + barH / 2 + 4) +
           "\" text-anchor=\"end\">communication</text>\n";
    out += seg(0, hidden, 58, "var(--hidden)", "hidden communication " + formatSeconds(hidden));
    out += seg(compute, exposed, 58, "var(--exposed)", "exposed communication " + formatSeconds(exposed));
    stepBars_ = compute + exposed + hidden > 0;
    // Time axis.
    out += "<line class=\"axis\" x1=\"" + svgNumber(left) + "\" y1=\"92\" x2=\"" + svgNumber(left + barW) + "\" y2=\"92\"/>\n";
    for (double s = 0; s <= scale * (1 + 1e-9); s += tick) {
      out += "<line class=\"axis\" x1=\"" + svgNumber(x(s)) + "\" y1=\"92\" x2=\"" + svgNumber(x(s)) + "\" y2=\"96\"/>";
      out += "<text class=\"tick\" x=\"" + svgNumber(x(s)) + "\" y=\"110\" text-anchor=\"" +
             (s == 0 ? "start" : s + tick > scale * (1 + 1e-9) ? "end" : "middle") + "\">" + htmlEscape(formatSeconds(s)) + "</text>\n";
    }
    out += "</svg>\n<div class=\"legend\">";
    auto item = [&](const char *color, const std::string &name, double s) {
      return "<span><span class=\"sw\" style=\"background:" + std::string(color) + "\"></span>" + name + " <b>" +
             htmlEscape(formatSeconds(s)) + "</b> " + htmlEscape(step > 0 ? "(" + percent(s, step) + " of step)" : "") +
             "</span>";
    };
    out += item("var(--compute)", "compute", compute) + item("var(--exposed)", "exposed communication", exposed) +
           item("var(--hidden)", "hidden communication", hidden);
    out += "</div>\n";
    const nlohmann::json &byKind = field(sim, "communication_by_kind");
    if (byKind.is_object() && !byKind.empty()) {
      out += "<h3>Communication by collective kind</h3>\n<table class=\"sortable\" id=\"comm-table\"><thead><tr>"
             "<th>kind</th><th class=\"num\">exposed</th><th class=\"num\">hidden</th><th class=\"num\">hidden share</th>"
             "</tr></thead><tbody>\n";
      for (const auto &[kind, v] : byKind.items()) {
        double e = withoutResidue(numberOr(v, "exposed_seconds")), h = withoutResidue(numberOr(v, "hidden_seconds"));
        out += "<tr><td>" + htmlEscape(kind) + "</td>" + numCell(formatSeconds(e), e) + numCell(formatSeconds(h), h) +
               numCell(percent(h, e + h), e + h > 0 ? h / (e + h) : 0) + "</tr>\n";
      }
      out += "</tbody></table>\n";
    }
    return out + "</section>\n";
  }

  std::string memorySection() {
    const nlohmann::json &mem = field(in_.simulation, "memory");
    double peak = numberOr(mem, "peak_bytes"), capacity = numberOr(mem, "capacity_bytes");
    const nlohmann::json &timeline = array(mem, "timeline");
    std::string out = "<section class=\"card\" id=\"memory\"><h2>Memory over the step</h2>\n";
    out += "<p class=\"note\">Bytes live on one device while each top-level op of the entry function runs, in "
           "program order (arguments, results until their last use, collective buffers, the peak inside loops); "
           "each point is the largest of a run of consecutive ops, so the peak is always drawn.</p>\n";
    // Points, with the op count along x.
    struct Point {
      double index, bytes;
      std::string where;
    };
    std::vector<Point> points;
    for (const nlohmann::json &p : timeline)
      if (number(p, "op_index") && number(p, "bytes")) points.push_back({*number(p, "op_index"), *number(p, "bytes"), text(p, "where")});
    double lastIndex = points.empty() ? 1 : std::max(1.0, points.back().index);
    if (m_ && entry_ != kNone) lastIndex = std::max(lastIndex, double(m_->blocks[FuncView{*m_, entry_}.entry()].ops.size()) - 1);
    double maxBytes = peak;
    for (const Point &p : points) maxBytes = std::max(maxBytes, p.bytes);
    // The capacity is drawn to scale when the peak is a fair part of it;
    // else the plot zooms on the peak and the capacity line sits at the top.
    bool capacityToScale = capacity > 0 && maxBytes >= 0.25 * capacity;
    double top = capacityToScale ? std::max(capacity, maxBytes) * 1.04 : std::max(maxBytes * 1.1, 1.0);
    const std::pair<double, double> axis = niceAxis(top, 4, byteUnit(top));
    const double tick = axis.first, yMax = axis.second;
    // (T leaves room above the axis for a capacity off its scale.)
    const double W = 1000, H = 350, L = 86, R = 24, T = 40, B = 44;
    auto px = [&](double i) { return L + (W - L - R) * i / lastIndex; };
    auto py = [&](double b) { return T + (H - T - B) * (1 - b / yMax); };
    out += "<svg id=\"memory-plot\" viewBox=\"0 0 " + svgNumber(W) + " " + svgNumber(H) + "\" width=\"100%\"" +
           " role=\"img\" aria-label=\"live memory per op\">\n";
    for (double b = 0; b <= yMax * (1 + 1e-9); b += tick) {
      out += "<line class=\"grid\" x1=\"" + svgNumber(L) + "\" x2=\"" + svgNumber(W - R) + "\" y1=\"" + svgNumber(py(b)) +
             "\" y2=\"" + svgNumber(py(b)) + "\"/><text class=\"tick\" x=\"" + svgNumber(L - 8) + "\" y=\"" +
             svgNumber(py(b) + 4) + "\" text-anchor=\"end\">" + htmlEscape(formatBytes(b)) + "</text>\n";
    }
    out += "<line class=\"axis\" x1=\"" + svgNumber(L) + "\" x2=\"" + svgNumber(W - R) + "\" y1=\"" + svgNumber(py(0)) +
           "\" y2=\"" + svgNumber(py(0)) + "\"/>\n";
    for (int t = 0; t <= 4; ++t) {
      double i = std::round(lastIndex * t / 4);
      out += "<text class=\"tick\" x=\"" + svgNumber(px(i)) + "\" y=\"" + svgNumber(H - B + 16) + "\" text-anchor=\"" +
             (t == 0 ? "start" : t == 4 ? "end" : "middle") + "\">op " + std::to_string(int64_t(i)) + "</text>\n";
    }
    out += "<text class=\"tick\" x=\"" + svgNumber(L + (W - L - R) / 2) + "\" y=\"" + svgNumber(H - 6) +
           "\" text-anchor=\"middle\">top-level ops of the entry function, in program order</text>\n";
    if (!points.empty()) {
      std::string line;
      for (size_t i = 0; i < points.size(); ++i)
        line += (i ? " L" : "M") + svgNumber(px(points[i].index)) + " " + svgNumber(py(points[i].bytes));
      if (points.size() == 1) line += " L" + svgNumber(px(lastIndex)) + " " + svgNumber(py(points[0].bytes));
      double lastX = points.size() == 1 ? px(lastIndex) : px(points.back().index);
      out += "<path class=\"mem-area\" d=\"" + line + " L" + svgNumber(lastX) + " " + svgNumber(py(0)) + " L" +
             svgNumber(px(points[0].index)) + " " + svgNumber(py(0)) + " Z\" fill=\"var(--compute)\" fill-opacity=\"0.18\"/>\n";
      out += "<path class=\"mem-line\" d=\"" + line + "\" fill=\"none\" stroke=\"var(--compute)\" stroke-width=\"1.6\"/>\n";
      memoryPoints_ = points.size() == 1 ? 2 : points.size();
      // Hover targets: one column per point with what runs there.
      for (size_t i = 0; i < points.size(); ++i) {
        double x0 = i ? (px(points[i - 1].index) + px(points[i].index)) / 2 : L;
        double x1 = i + 1 < points.size() ? (px(points[i].index) + px(points[i + 1].index)) / 2 : W - R;
        out += "<rect x=\"" + svgNumber(x0) + "\" y=\"" + svgNumber(T) + "\" width=\"" + svgNumber(std::max(0.5, x1 - x0)) +
               "\" height=\"" + svgNumber(H - T - B) + "\" fill=\"transparent\"><title>op " +
               std::to_string(int64_t(points[i].index)) + ": " + htmlEscape(formatBytes(points[i].bytes)) + " live at " +
               htmlEscape(points[i].where) + "</title></rect>\n";
      }
      size_t top = 0;
      for (size_t i = 1; i < points.size(); ++i)
        if (points[i].bytes > points[top].bytes) top = i;
      double cx = px(points[top].index), cy = py(points[top].bytes);
      bool right = cx < L + (W - L - R) * 0.6;
      out += "<circle cx=\"" + svgNumber(cx) + "\" cy=\"" + svgNumber(cy) + "\" r=\"4.5\" fill=\"var(--exposed)\"/>\n";
      out += "<text x=\"" + svgNumber(cx + (right ? 9 : -9)) + "\" y=\"" + svgNumber(std::max(T + 12, cy - 8)) +
             "\" class=\"halo\" text-anchor=\"" + (right ? "start" : "end") + "\" font-size=\"12\" font-weight=\"600\">peak " +
             htmlEscape(formatBytes(peak > 0 ? peak : points[top].bytes)) + " (op " +
             std::to_string(int64_t(points[top].index)) + ")</text>\n";
    }
    if (capacity > 0) {
      // Off scale, the line runs in the margin above the axis, apart from
      // the ticks, and says how far up it really is.
      double cy = capacityToScale ? py(capacity) : 20;
      out += "<line x1=\"" + svgNumber(L) + "\" x2=\"" + svgNumber(W - R) + "\" y1=\"" + svgNumber(cy) + "\" y2=\"" +
             svgNumber(cy) + "\" stroke=\"var(--exposed)\" stroke-dasharray=\"6 4\" stroke-width=\"1.4\"/>\n";
      out += "<text x=\"" + svgNumber(W - R - 4) + "\" y=\"" + svgNumber(cy - 5) + "\" class=\"halo\" text-anchor=\"end\" font-size=\"12\" fill=\"#b42323\">HBM capacity " +
             htmlEscape(formatBytes(capacity)) +
             (capacityToScale ? "" : " (off scale: the peak is " + percent(maxBytes, capacity) + " of it)") + "</text>\n";
    }
    out += "</svg>\n";
    if (points.empty()) out += "<p class=\"note\">No timeline in the simulation report.</p>\n";

    // What is live at the peak: by category and the largest buffers.
    out += "<div class=\"grid2\"><div><h3>Live at the peak, by category</h3>\n";
    std::string peakAt = text(mem, "peak_at");
    out += "<p class=\"note\">Peak " + htmlEscape(formatBytes(peak)) +
           (peakAt.empty() ? std::string(" before the first op") : " at " + linked(peakAt)) + ".</p>\n";
    const nlohmann::json &breakdown = field(mem, "breakdown");
    double sum = 0;
    for (size_t c = 0; c < kNumMemoryCategories; ++c) sum += numberOr(breakdown, memoryCategoryKey(MemoryCategory(c)));
    if (sum > 0) {
      out += "<svg id=\"memory-breakdown\" viewBox=\"0 0 560 26\" width=\"560\" height=\"26\" role=\"img\" aria-label=\"peak by category\">";
      double at = 0;
      for (size_t c = 0; c < kNumMemoryCategories; ++c) {
        double b = numberOr(breakdown, memoryCategoryKey(MemoryCategory(c)));
        if (b <= 0) continue;
        out += "<rect x=\"" + svgNumber(560 * at / sum) + "\" y=\"2\" width=\"" + svgNumber(std::max(1.0, 560 * b / sum)) +
               "\" height=\"22\" fill=\"" + kCategoryColors[c] + "\"><title>" +
               htmlEscape(std::string(memoryCategoryName(MemoryCategory(c))) + " " + formatBytes(b)) + "</title></rect>";
        at += b;
      }
      out += "</svg>\n";
    }
    out += "<table class=\"sortable\" id=\"breakdown-table\"><thead><tr><th>category</th><th class=\"num\">bytes</th>"
           "<th class=\"num\">of peak</th></tr></thead><tbody>\n";
    for (size_t c = 0; c < kNumMemoryCategories; ++c) {
      double b = numberOr(breakdown, memoryCategoryKey(MemoryCategory(c)));
      out += "<tr><td><span class=\"legend\" style=\"display:inline\"><span class=\"sw\" style=\"background:" +
             std::string(kCategoryColors[c]) + "\"></span></span>" + htmlEscape(memoryCategoryName(MemoryCategory(c))) +
             "</td>" + numCell(formatBytes(b), b) + numCell(percent(b, peak), peak > 0 ? b / peak : 0) + "</tr>\n";
    }
    out += "</tbody></table></div>\n<div><h3>Largest buffers live at the peak</h3>\n";
    out += "<p class=\"note\">Arguments, results, collective buffers of the op at the peak, and the peak inside its "
           "regions.</p>\n<table class=\"sortable\" id=\"live-table\"><thead><tr><th>buffer</th><th class=\"num\">bytes</th>"
           "</tr></thead><tbody>\n";
    for (const nlohmann::json &b : array(mem, "live_at_peak"))
      out += "<tr><td class=\"wrap\">" + linked(text(b, "what")) + "</td>" +
             numCell(formatBytes(numberOr(b, "bytes")), numberOr(b, "bytes")) + "</tr>\n";
    out += "</tbody></table></div></div>\n";
    return out + "</section>\n";
  }

  std::string costliestSection() {
    const nlohmann::json &sim = in_.simulation;
    double step = numberOr(sim, "step_seconds");
    std::string out = "<section class=\"card\" id=\"costliest\"><h2>Where the time goes</h2>\n";
    out += "<p class=\"note\">Times are per step (an op in a loop counts once per iteration). Click a location to "
           "see its source line.</p>\n";
    out += "<h3>Costliest kernels</h3>\n<p class=\"note\">Kernels as XLA would fuse them; the location is the "
           "kernel's root op.</p>\n<div class=\"scroll\"><table class=\"sortable\" id=\"kernel-table\"><thead><tr>"
           "<th class=\"num\">time</th><th>kind</th><th>root op (and the ops it fuses)</th>"
           "<th>where</th><th>bound</th><th class=\"num\">bytes</th><th class=\"num\">FLOPs</th>"
           "<th class=\"num\">GEMM eff.</th></tr></thead><tbody>\n";
    for (const nlohmann::json &k : array(sim, "top_kernels")) {
      double s = numberOr(k, "seconds");
      const nlohmann::json &ops = array(k, "ops");
      std::string fuses;
      size_t shown = 0;
      for (const nlohmann::json &op : ops) {
        if (shown++ == 6) {
          fuses += " &hellip; " + std::to_string(ops.size() - 6) + " more";
          break;
        }
        fuses += (shown > 1 ? ", " : "") + htmlEscape(shortOpName(text(op, "op")));
      }
      bool library = text(k, "kind") == "library";
      out += "<tr>" + timeCell(s, step) + "<td>" +
             htmlEscape(text(k, "kind")) + "</td><td><span class=\"mono\">" + htmlEscape(shortOpName(text(k, "root"))) +
             "</span>" +
             (ops.size() > 1 ? "<div class=\"fuses\">fuses " + std::to_string(ops.size()) + " ops: " + fuses + "</div>" : "") +
             "</td><td>" + linked(text(k, "where")) + "</td><td>" + htmlEscape(text(k, "bound")) + "</td>" +
             numCell(formatBytes(numberOr(k, "bytes")), numberOr(k, "bytes")) +
             numCell(count(numberOr(k, "flops")), numberOr(k, "flops")) +
             numCell(library ? fixed(numberOr(k, "matmul_efficiency"), 2) : "", library ? numberOr(k, "matmul_efficiency") : 0) +
             "</tr>\n";
    }
    out += "</tbody></table></div>\n";

    out += "<h3>Costliest collectives</h3>\n<div class=\"scroll\"><table class=\"sortable\" id=\"collective-table\"><thead><tr>"
           "<th class=\"num\">time</th><th>kind</th><th>axes</th><th class=\"num\">bytes</th>"
           "<th>op</th><th>where</th></tr></thead><tbody>\n";
    const nlohmann::json &colls = array(sim, "top_collectives");
    for (const nlohmann::json &c : colls) {
      double s = numberOr(c, "seconds");
      out += "<tr>" + timeCell(s, step) + "<td>" +
             htmlEscape(text(c, "kind")) + "</td><td class=\"mono\">" + htmlEscape(text(c, "axes")) + "</td>" +
             numCell(formatBytes(numberOr(c, "bytes")), numberOr(c, "bytes")) + "<td class=\"mono\">" +
             htmlEscape(shortOpName(text(c, "op"))) + "</td><td>" + linked(text(c, "where")) + "</td></tr>\n";
    }
    if (colls.empty()) out += "<tr><td colspan=\"6\">No collectives: the plan needs no communication.</td></tr>\n";
    out += "</tbody></table></div>\n";

    out += "<details><summary><b>Costliest ops</b> (before fusion)</summary>\n<div class=\"scroll\"><table "
           "class=\"sortable\" id=\"op-table\"><thead><tr><th class=\"num\">time</th><th>op</th><th>where</th>"
           "<th class=\"num\">compute</th><th class=\"num\">communication</th><th class=\"num\">FLOPs</th>"
           "<th class=\"num\">bytes</th><th class=\"num\">runs</th></tr></thead><tbody>\n";
    for (const nlohmann::json &o : array(sim, "top_ops")) {
      double s = numberOr(o, "seconds");
      out += "<tr>" + numCell(formatSeconds(s), s) + "<td class=\"mono\">" + htmlEscape(shortOpName(text(o, "op"))) +
             "</td><td>" + linked(text(o, "where")) + "</td>" +
             numCell(formatSeconds(numberOr(o, "compute_seconds")), numberOr(o, "compute_seconds")) +
             numCell(formatSeconds(numberOr(o, "communication_seconds")), numberOr(o, "communication_seconds")) +
             numCell(count(numberOr(o, "flops")), numberOr(o, "flops")) +
             numCell(formatBytes(numberOr(o, "bytes")), numberOr(o, "bytes")) +
             numCell(count(numberOr(o, "executions", 1)), numberOr(o, "executions", 1)) + "</tr>\n";
    }
    out += "</tbody></table></div></details>\n";
    return out + "</section>\n";
  }

  std::string argumentSection() {
    const Module &m = *m_;
    FuncView f{m, entry_};
    std::vector<ArgumentInfo> info = classifyArguments(m, entry_);
    std::span<const ValueId> args = f.args();
    std::string rows;
    double total = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      ValueId v = args[i];
      const TensorSharding *s = shardings_->get(v);
      const Mesh *mesh = s ? shardings_->mesh(*s) : nullptr;
      TypeId t = m.type(v);
      double bytes = double(localBytes(m.types, t, s, mesh));
      total += bytes;
      std::string name = i < info.size() ? info[i].name : "%arg" + std::to_string(i);
      std::string sharding = s ? (s->isFullyReplicated() ? "replicated" : s->strBody()) : "replicated";
      rows += "<tr>" + numCell(std::to_string(i), double(i)) + "<td class=\"mono wrap\">" + htmlEscape(name) + "</td><td>" +
              (i < info.size() ? htmlEscape(roleName(info[i].role)) : "") + "</td><td class=\"mono\">" +
              htmlEscape(m.types.str(t)) + "</td><td class=\"mono\">" + htmlEscape(sharding) + "</td><td class=\"mono\">" +
              htmlEscape(localShapeText(m.types, t, s, mesh)) + "</td>" + numCell(formatBytes(bytes), bytes) + "</tr>\n";
    }
    argumentRows_ = args.size();
    std::string out = "<section class=\"card\" id=\"arguments\"><h2>Argument shardings</h2>\n";
    out += "<p class=\"note\">" + std::to_string(args.size()) + " arguments of @" + htmlEscape(std::string(f.name())) +
           ", " + htmlEscape(formatBytes(total)) +
           " per device in all. The local shape is each dimension divided by the product of the mesh axes sharding it "
           "(rounded up). Click a header to sort.</p>\n";
    out += "<div class=\"scroll\"><table class=\"sortable\" id=\"argument-table\"><thead><tr><th class=\"num\">#</th>"
           "<th>argument</th><th>role</th><th>global type</th><th>sharding</th><th>local shape</th>"
           "<th class=\"num\">bytes per device</th></tr></thead><tbody>\n" +
           rows + "</tbody></table></div>\n";
    return out + "</section>\n";
  }

  std::string searchSection() {
    const nlohmann::json &search = in_.search;
    const nlohmann::json &results = array(search, "results");
    std::string chosen = text(search, "chosen");
    double capacity = numberOr(search, "hbm_bytes");
    double maxStep = 0;
    for (const nlohmann::json &r : results) maxStep = std::max(maxStep, numberOr(r, "step_seconds"));
    std::string out = "<section class=\"card\" id=\"search\"><h2>Search methods side by side</h2>\n";
    out += "<p class=\"note\">Every method priced on the same cost model";
    if (!text(search, "mesh").empty()) out += ", mesh " + htmlEscape(text(search, "mesh"));
    if (!text(search, "device").empty()) out += ", device " + htmlEscape(text(search, "device"));
    if (capacity > 0) out += " (" + htmlEscape(formatBytes(capacity)) + " HBM)";
    out += ". Levers: " + htmlEscape(text(search, "levers").empty() ? "none" : text(search, "levers"));
    if (!text(search, "levers_summary").empty()) out += " &mdash; " + htmlEscape(text(search, "levers_summary"));
    out += ".</p>\n";
    out += "<div class=\"scroll\"><table class=\"sortable\" id=\"search-table\"><thead><tr><th>method</th>"
           "<th class=\"num\">step</th><th>step (relative)</th><th class=\"num\">compute</th>"
           "<th class=\"num\">communication</th><th class=\"num\">peak memory</th><th>fits</th>"
           "<th class=\"num\">search time</th><th>note</th></tr></thead><tbody>\n";
    for (const nlohmann::json &r : results) {
      std::string method = text(r, "method");
      bool found = !field(r, "found").is_boolean() || field(r, "found").get<bool>();
      bool isChosen = method == chosen && !chosen.empty();
      std::optional<double> step = number(r, "step_seconds");
      out += std::string(isChosen ? "<tr class=\"chosen\">" : "<tr>") + "<td>" + htmlEscape(method) +
             (isChosen ? " <span class=\"badge chosen\">chosen</span>" : "") + "</td>";
      if (found && step) {
        double w = maxStep > 0 ? 180 * *step / maxStep : 0;
        out += numCell(formatSeconds(*step), *step) + "<td data-v=\"" + svgNumber(w) +
               "\"><svg width=\"184\" height=\"12\" viewBox=\"0 0 184 12\"><rect x=\"0\" y=\"1\" width=\"" +
               svgNumber(std::max(1.0, w)) + "\" height=\"10\" rx=\"2\" fill=\"var(--compute)\"/></svg></td>" +
               numCell(formatSeconds(numberOr(r, "compute_seconds")), numberOr(r, "compute_seconds")) +
               numCell(formatSeconds(numberOr(r, "communication_seconds")), numberOr(r, "communication_seconds")) +
               numCell(formatBytes(numberOr(r, "peak_bytes")), numberOr(r, "peak_bytes"));
        bool fits = field(r, "fits").is_boolean() && field(r, "fits").get<bool>();
        out += std::string("<td>") + (fits ? "<span class=\"badge ok\">fits</span>" : "<span class=\"badge bad\">no</span>") +
               "</td>";
      } else {
        out += "<td class=\"num\" data-v=\"1e300\">&mdash;</td><td data-v=\"1e300\">not found</td>"
               "<td class=\"num\" data-v=\"1e300\"></td><td class=\"num\" data-v=\"1e300\"></td>"
               "<td class=\"num\" data-v=\"1e300\"></td><td></td>";
      }
      out += numCell(formatSeconds(numberOr(r, "search_seconds")), numberOr(r, "search_seconds")) + "<td>" +
             htmlEscape(text(r, "note")) + "</td></tr>\n";
      ++searchRows_;
    }
    out += "</tbody></table></div>\n";
    const nlohmann::json &trials = array(search, "lever_trials");
    if (!trials.empty()) {
      out += "<h3>Lever configurations tried</h3>\n<table class=\"sortable\" id=\"lever-table\"><thead><tr><th>levers</th>"
             "<th>best method</th><th class=\"num\">step</th><th class=\"num\">peak memory</th><th>fits</th>"
             "<th>note</th></tr></thead><tbody>\n";
      for (const nlohmann::json &t : trials) {
        bool fits = field(t, "fits").is_boolean() && field(t, "fits").get<bool>();
        out += "<tr><td class=\"mono\">" + htmlEscape(text(t, "levers")) + "</td><td>" + htmlEscape(text(t, "best_expert")) +
               "</td>" + numCell(formatSeconds(numberOr(t, "step_seconds")), numberOr(t, "step_seconds")) +
               numCell(formatBytes(numberOr(t, "peak_bytes")), numberOr(t, "peak_bytes")) + "<td>" +
               (fits ? "<span class=\"badge ok\">fits</span>" : "<span class=\"badge bad\">no</span>") + "</td><td>" +
               htmlEscape(text(t, "note")) + "</td></tr>\n";
      }
      out += "</tbody></table>\n";
    }
    return out + "</section>\n";
  }

  std::string sourceSection() {
    if (lines_.empty() || !m_ || !m_->source) return "";
    std::string out = "<section class=\"card\" id=\"source\"><h2>Source lines</h2>\n<p class=\"note\">The lines of " +
                      htmlEscape(m_->fileName) + " the report points at (long lines cut at " +
                      std::to_string(kMaxSourceLine) + " characters).</p>\n<div class=\"scroll\">\n";
    for (uint32_t line : lines_)
      out += "<div class=\"src\" id=\"L" + std::to_string(line) + "\"><a class=\"ln\" href=\"#L" + std::to_string(line) +
             "\">" + std::to_string(line) + "</a><code>" + htmlEscape(lineText(line)) + "</code></div>\n";
    return out + "</div>\n</section>\n";
  }

  const HtmlReportInput &in_;
  const Module *m_;
  std::unique_ptr<ShardingMap> ownShardings_;
  const ShardingMap *shardings_ = nullptr;
  OpId entry_ = kNone;
  const Mesh *mesh_ = nullptr;
  std::vector<size_t> lineStarts_;
  std::set<uint32_t> lines_;  // source lines linked so far
  size_t memoryPoints_ = 0, argumentRows_ = 0, searchRows_ = 0;
  bool stepBars_ = false;
};

}  // namespace

std::string renderHtmlReport(const HtmlReportInput &in) { return Page(in).render(); }

}  // namespace autopart
