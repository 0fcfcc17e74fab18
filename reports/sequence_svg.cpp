#include "reports/sequence_svg.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "reports/xml_text.hpp"

namespace reports {
namespace {

constexpr int kLaneWidth = 230;
constexpr int kLeft = 130;    // the first lane's x
constexpr int kTop = 62;      // the first row's y
constexpr int kRow = 24;      // one moment
constexpr int kBoxHalf = 46;  // call boxes are 2 * kBoxHalf wide

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

std::string us(std::int64_t ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f us", static_cast<double>(ns) / 1000.0);
  return b;
}

}  // namespace

std::string sequence_svg(const Trace& t, const nlohmann::json& rank_states,
                         const std::string& title) {
  // Every distinct moment is a row.
  std::set<std::int64_t> moments;
  for (const auto& c : t.calls) moments.insert({c.start_ns, c.end_ns});
  for (const auto& p : t.packets)
    for (const auto& v : {p.sent_ns, p.arrived_ns, p.handled_ns})
      if (v) moments.insert(*v);
  std::map<std::int64_t, int> row;
  for (std::int64_t m : moments) row.emplace(m, static_cast<int>(row.size()));
  const auto y = [&](std::int64_t ns) { return kTop + row.at(ns) * kRow; };
  const auto x = [](int rank) { return kLeft + rank * kLaneWidth; };

  std::map<int, std::string> blocked;  // rank -> "blocked in complete: waiting for ..."
  if (rank_states.is_array())
    for (const auto& s : rank_states) {
      if (!s.is_object() || !s.value("blocked", false)) continue;
      std::string what = "blocked in " + s.value("call", std::string("?"));
      const std::string w = s.value("waiting_for", std::string());
      if (!w.empty()) what += ": " + w;
      blocked[s.value("rank", -1)] = what;
    }

  const int ranks = std::max(t.ranks, 1);
  const int bottom = kTop + static_cast<int>(moments.size()) * kRow + (blocked.empty() ? 10 : 50);
  const int width = kLeft + (ranks - 1) * kLaneWidth + kLeft;
  std::ostringstream o;
  o << "<svg class=\"sequence\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
    << "\" height=\"" << bottom + 10 << "\" viewBox=\"0 0 " << width << " " << bottom + 10
    << "\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"11\">\n";
  o << "<defs><marker id=\"seq-head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
       "markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 "
       "L0,10 z\" fill=\""
    << sequence_arrow_color << "\"/></marker></defs>\n";
  o << "<rect x=\"0\" y=\"0\" width=\"" << width << "\" height=\"" << bottom + 10
    << "\" fill=\"#ffffff\"/>\n";
  if (!title.empty())
    o << "<text x=\"8\" y=\"16\" font-weight=\"bold\">" << xml_text(title) << "</text>\n";
  for (int r = 0; r < ranks; ++r) {
    o << "<text x=\"" << x(r) << "\" y=\"40\" text-anchor=\"middle\" font-weight=\"bold\">rank "
      << r << "</text>\n";
    o << "<line class=\"lane\" x1=\"" << x(r) << "\" y1=\"48\" x2=\"" << x(r) << "\" y2=\""
      << bottom << "\" stroke=\"#9a9a9a\" stroke-dasharray=\"3,3\"/>\n";
  }
  for (const auto& c : t.calls) {
    const int y0 = y(c.start_ns) - 8;
    const int h = std::max(y(c.end_ns) - y(c.start_ns) + 16, 16);
    std::string label = c.name + "(";
    if (c.target >= 0) label += std::to_string(c.target);
    label += ")";
    o << "<g class=\"call\"><title>" << xml_text(label) << " rank " << c.rank << ", "
      << us(c.start_ns) << " .. " << us(c.end_ns)
      << (c.bytes ? ", " + std::to_string(c.bytes) + " B" : "") << "</title><rect x=\""
      << x(c.rank) - kBoxHalf << "\" y=\"" << y0 << "\" width=\"" << 2 * kBoxHalf << "\" height=\""
      << h << "\" rx=\"3\" fill=\"#e8eef7\" stroke=\"#5a6f8c\"/><text x=\"" << x(c.rank)
      << "\" y=\"" << y0 + 12 << "\" text-anchor=\"middle\">" << xml_text(label) << "</text></g>\n";
  }
  for (const auto& p : t.packets) {
    const bool handled = p.handled_ns.has_value();
    const std::int64_t start = p.sent_ns ? *p.sent_ns : *p.arrived_ns;
    const double x1 = x(p.src) + (p.dst > p.src ? kBoxHalf : -kBoxHalf);
    double x2 = x(p.dst) + (p.dst > p.src ? -kBoxHalf : kBoxHalf);
    double y1 = y(start);
    double y2 = handled ? y(*p.handled_ns) : p.arrived_ns ? y(*p.arrived_ns) : y1 + kRow;
    if (!p.sent_ns) y1 = y2 - kRow;  // its sender's record was dropped: drawn short
    std::string note;
    if (!p.arrived_ns) {
      x2 = (x1 + x2) / 2;
      note = " ?";
    } else if (!handled) {
      note = " (not handled)";
    }
    const double lx = (x1 + x2) / 2, ly = (y1 + y2) / 2 - 4;
    o << "<g class=\"packet\"><title>" << xml_text(packet_label(p)) << ", rank " << p.src
      << " -> rank " << p.dst << ", " << p.bytes << " B"
      << (p.sent_ns ? ", sent " + us(*p.sent_ns) : "")
      << (p.arrived_ns ? ", arrived " + us(*p.arrived_ns) : "")
      << (handled ? ", handled " + us(*p.handled_ns) : "") << "</title><line x1=\"" << num(x1)
      << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\"" << num(y2) << "\" stroke=\""
      << sequence_arrow_color << "\" stroke-width=\"2\""
      << (handled ? "" : " stroke-dasharray=\"6,4\"") << " marker-end=\"url(#seq-head)\"/>"
      << "<text x=\"" << num(lx) << "\" y=\"" << num(ly)
      << "\" text-anchor=\"middle\" fill=\"#222\" paint-order=\"stroke\" stroke=\"#fff\" "
         "stroke-width=\"3\">"
      << xml_text(packet_label(p) + note) << "</text></g>\n";
  }
  for (const auto& [rank, what] : blocked) {
    if (rank < 0 || rank >= ranks) continue;
    o << "<g class=\"blocked\"><rect x=\"" << x(rank) - kLaneWidth / 2 + 12 << "\" y=\""
      << bottom - 34 << "\" width=\"" << kLaneWidth - 24
      << "\" height=\"26\" rx=\"3\" fill=\"#fde8e6\" stroke=\"#8b1a1a\"/><text x=\"" << x(rank)
      << "\" y=\"" << bottom - 17 << "\" text-anchor=\"middle\" fill=\"#8b1a1a\">"
      << xml_text(what.size() > 31 ? what.substr(0, 30) + "\u2026" : what) << "<title>"
      << xml_text(what) << "</title></text></g>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace reports
