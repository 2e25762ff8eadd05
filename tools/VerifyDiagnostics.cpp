#include "tools/VerifyDiagnostics.h"

#include <regex>

namespace autopart {

void ExpectedDiagnostics::collect(const std::string &text, const std::string &file) {
  file_ = file;
  static const std::regex re(
      R"(expected-(error|warning|remark|note)\s*(@(\+[0-9]+|-[0-9]+|above|below))?\s*\{\{(.*?)\}\})");
  uint32_t lineNo = 0;
  size_t pos = 0;
  std::vector<size_t> pendingBelow;
  while (pos <= text.size()) {
    ++lineNo;
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    bool isComment = line.find_first_not_of(" \t") != std::string::npos &&
                     line.compare(line.find_first_not_of(" \t"), 2, "//") == 0;
    if (!isComment) {
      if (!line.empty() && line.find_first_not_of(" \t") != std::string::npos) {
        for (size_t i : pendingBelow) expected_[i].line = lineNo;
        pendingBelow.clear();
      }
    }
    for (std::sregex_iterator it(line.begin(), line.end(), re), end; it != end; ++it) {
      const std::smatch &m = *it;
      std::string kind = m[1];
      Severity sev = kind == "error"     ? Severity::Error
                     : kind == "warning" ? Severity::Warning
                     : kind == "remark"  ? Severity::Remark
                                         : Severity::Note;
      uint32_t target = lineNo;
      std::string off = m[3];
      if (off == "above") {
        target = lineNo - 1;
      } else if (off == "below") {
        expected_.push_back({sev, 0, m[4], false});
        pendingBelow.push_back(expected_.size() - 1);
        continue;
      } else if (!off.empty()) {
        int delta = std::stoi(off);
        target = uint32_t(int(lineNo) + delta);
      }
      expected_.push_back({sev, target, m[4], false});
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
}

void ExpectedDiagnostics::consume(const Diagnostics &diags) {
  for (const Diagnostic &d : diags.all()) {
    bool found = false;
    for (Expected &e : expected_) {
      if (e.matched || e.severity != d.severity || e.line != d.line) continue;
      if (d.message.find(e.text) == std::string::npos) continue;
      e.matched = found = true;
      break;
    }
    if (!found && (d.severity == Severity::Error || d.severity == Severity::Warning))
      unexpected_.push_back(d);
  }
}

bool ExpectedDiagnostics::finish(std::ostream &os) {
  bool ok = true;
  for (const Expected &e : expected_)
    if (!e.matched) {
      os << file_ << ":" << e.line << ": error: expected diagnostic not produced: " << e.text
         << "\n";
      ok = false;
    }
  for (const Diagnostic &d : unexpected_) {
    os << "unexpected diagnostic: " << d.str() << "\n";
    ok = false;
  }
  return ok;
}

}  // namespace autopart
