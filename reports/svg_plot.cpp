#include "reports/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "reports/xml_text.hpp"

namespace reports {

namespace {

// Layout, in SVG user units (= CSS pixels): the plot area, the x axis's title, then the
// legend in two columns below, as tall as the series need.
constexpr int kWidth = 590;
constexpr int kLeft = 84;
constexpr int kRight = 572;
constexpr int kTop = 36;
constexpr int kBottom = 290;
constexpr int kLegendTop = 352;
constexpr int kLegendRow = 18;
constexpr int kLegendColumn = 244;
constexpr std::size_t kMaxLabel = 38;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string g_format(double v, const char* unit) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %s", v, unit);
  return buf;
}

struct Domain {
  double x_lo = 0, x_hi = 1;  // log2 of bytes
  double y_lo = 0, y_hi = 1;  // log10 of the value

  double px(double x) const {
    return kLeft + (std::log2(x) - x_lo) / (x_hi - x_lo) * (kRight - kLeft);
  }
  double py(double y) const {
    return kBottom - (std::log10(y) - y_lo) / (y_hi - y_lo) * (kBottom - kTop);
  }
};

bool usable(const PlotPoint& p) {
  return std::isfinite(p.x) && p.x > 0 && std::isfinite(p.y) && p.y > 0;
}

// The points to draw, by size, with the band clamped to contain the median and to stay > 0.
std::vector<PlotPoint> clean(const PlotSeries& s) {
  std::vector<PlotPoint> pts;
  for (PlotPoint p : s.points) {
    if (!usable(p)) continue;
    p.lo = std::isfinite(p.lo) && p.lo > 0 ? std::min(p.lo, p.y) : p.y;
    p.hi = std::isfinite(p.hi) ? std::max(p.hi, p.y) : p.y;
    pts.push_back(std::move(p));
  }
  std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
  return pts;
}

// Pads half a power of two on each side so the first and last markers sit inside the frame,
// and whole decades on y (at least one) so every tick is a round number.
Domain domain_of(const std::vector<std::vector<PlotPoint>>& all) {
  double x_min = std::numeric_limits<double>::infinity(), x_max = 0;
  double y_min = std::numeric_limits<double>::infinity(), y_max = 0;
  for (const auto& pts : all) {
    for (const auto& p : pts) {
      x_min = std::min(x_min, p.x);
      x_max = std::max(x_max, p.x);
      y_min = std::min(y_min, p.lo);
      y_max = std::max(y_max, p.hi);
    }
  }
  Domain d;
  if (!(x_max > 0)) return d;
  d.x_lo = std::log2(x_min) - 0.5;
  d.x_hi = std::log2(x_max) + 0.5;
  d.y_lo = std::floor(std::log10(y_min) - 0.02);
  d.y_hi = std::ceil(std::log10(y_max) + 0.02);
  if (d.y_hi - d.y_lo < 1) d.y_hi = d.y_lo + 1;
  return d;
}

void x_axis(const Domain& d, std::ostream& out) {
  const int first = static_cast<int>(std::ceil(d.x_lo));
  const int last = static_cast<int>(std::floor(d.x_hi));
  // At most about eight labels; the other powers of two get a short unlabelled tick.
  const int step = std::max(1, static_cast<int>(std::ceil((last - first + 1) / 8.0)));
  for (int e = first; e <= last; ++e) {
    const double x = kLeft + (e - d.x_lo) / (d.x_hi - d.x_lo) * (kRight - kLeft);
    const bool labelled = e % step == 0;
    if (labelled) {
      out << "<line class=\"grid\" x1=\"" << num(x) << "\" y1=\"" << kTop << "\" x2=\"" << num(x)
          << "\" y2=\"" << kBottom << "\"/>";
    }
    out << "<line class=\"tick\" x1=\"" << num(x) << "\" y1=\"" << kBottom << "\" x2=\"" << num(x)
        << "\" y2=\"" << kBottom + (labelled ? 6 : 3) << "\"/>";
    if (labelled) {
      out << "<text class=\"tl\" x=\"" << num(x) << "\" y=\"" << kBottom + 19
          << "\" text-anchor=\"middle\">" << xml_text(format_bytes(std::ldexp(1.0, e)))
          << "</text>";
    }
  }
  out << "\n";
}

void y_axis(const Domain& d, PlotUnit unit, std::ostream& out) {
  const int decades = static_cast<int>(std::lround(d.y_hi - d.y_lo));
  const int step = decades > 8 ? 2 : 1;
  for (int k = static_cast<int>(d.y_lo); k <= static_cast<int>(d.y_hi); ++k) {
    for (int m = 1; m <= 9; ++m) {
      const double v = m * std::pow(10.0, k);
      const double lv = std::log10(v);
      if (lv > d.y_hi + 1e-9) break;
      const double y = kBottom - (lv - d.y_lo) / (d.y_hi - d.y_lo) * (kBottom - kTop);
      // Decades are labelled; with few decades 2 and 5 are too, so a narrow range still
      // reads; the other multiples get a faint line only.
      const bool decade = m == 1 && (k - static_cast<int>(d.y_lo)) % step == 0;
      const bool labelled = decade || (decades <= 2 && (m == 2 || m == 5));
      if (m != 1 && decades > 3) continue;
      out << "<line class=\"" << (labelled ? "grid" : "minor") << "\" x1=\"" << kLeft << "\" y1=\""
          << num(y) << "\" x2=\"" << kRight << "\" y2=\"" << num(y) << "\"/>";
      if (labelled) {
        out << "<line class=\"tick\" x1=\"" << kLeft - 6 << "\" y1=\"" << num(y) << "\" x2=\""
            << kLeft << "\" y2=\"" << num(y) << "\"/>";
        out << "<text class=\"tl\" x=\"" << kLeft - 9 << "\" y=\"" << num(y + 4)
            << "\" text-anchor=\"end\">" << xml_text(format_plot_value(v, unit)) << "</text>";
      }
    }
  }
  out << "\n";
}

std::string truncated(const std::string& s) {
  if (s.size() <= kMaxLabel) return s;
  std::size_t cut = kMaxLabel - 1;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
  return s.substr(0, cut) + "\u2026";
}

void series(const std::vector<PlotPoint>& pts, std::string_view color, bool dashed, const Domain& d,
            std::ostream& out) {
  if (pts.empty()) return;
  const bool band = std::any_of(pts.begin(), pts.end(), [](const auto& p) { return p.lo < p.hi; });
  if (band && pts.size() > 1) {
    out << "<path class=\"band\" fill=\"" << color << "\" d=\"M";
    for (const auto& p : pts) out << " " << num(d.px(p.x)) << "," << num(d.py(p.hi));
    for (auto it = pts.rbegin(); it != pts.rend(); ++it) {
      out << " " << num(d.px(it->x)) << "," << num(d.py(it->lo));
    }
    out << " Z\"/>";
  } else if (band) {
    out << "<line class=\"whisker\" stroke=\"" << color << "\" x1=\"" << num(d.px(pts[0].x))
        << "\" y1=\"" << num(d.py(pts[0].hi)) << "\" x2=\"" << num(d.px(pts[0].x)) << "\" y2=\""
        << num(d.py(pts[0].lo)) << "\"/>";
  }
  if (pts.size() > 1) {
    out << "<polyline class=\"line\" stroke=\"" << color << "\""
        << (dashed ? " stroke-dasharray=\"8 4\"" : "") << " points=\"";
    for (std::size_t i = 0; i < pts.size(); ++i) {
      out << (i ? " " : "") << num(d.px(pts[i].x)) << "," << num(d.py(pts[i].y));
    }
    out << "\"/>";
  }
  for (const auto& p : pts) {
    out << "<circle fill=\"" << color << "\" cx=\"" << num(d.px(p.x)) << "\" cy=\""
        << num(d.py(p.y)) << "\" r=\"3.5\">";
    if (!p.tip.empty()) out << "<title>" << xml_text(p.tip) << "</title>";
    out << "</circle>";
  }
  out << "\n";
}

}  // namespace

// Colours of the data and the frame are attributes (see the header); this is the rest.
const std::string_view svg_plot_css = R"(svg.plot { background: #fff; font: 12px sans-serif; }
svg.plot .frame { fill: none; stroke-width: 2px; }
svg.plot .grid { stroke: #dcdcdc; stroke-width: 1px; }
svg.plot .minor { stroke: #f0f0f0; stroke-width: 1px; }
svg.plot .tick { stroke: #555; stroke-width: 1px; }
svg.plot .tl, svg.plot .lg { fill: #333; font-size: 11px; }
svg.plot .at { fill: #333; font-size: 12px; }
svg.plot .pt { fill: #111; font-size: 14px; font-weight: bold; }
svg.plot .line { fill: none; stroke-width: 2.5px; stroke-linejoin: round; }
svg.plot .band { fill-opacity: 0.16; stroke: none; }
svg.plot .whisker { stroke-width: 1.5px; stroke-opacity: 0.6; }
)";

std::string format_bytes(double bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (std::abs(bytes) >= 1024 && i < 4) {
    bytes /= 1024;
    ++i;
  }
  return g_format(bytes, units[i]);
}

std::string format_plot_value(double value, PlotUnit unit) {
  if (unit == PlotUnit::microseconds) {
    if (value >= 1e6) return g_format(value / 1e6, "s");
    if (value >= 1e3) return g_format(value / 1e3, "ms");
    if (value >= 1) return g_format(value, "\u00b5s");
    return g_format(value * 1e3, "ns");
  }
  static constexpr const char* units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
  int i = 0;
  while (value >= 1000 && i < 4) {
    value /= 1000;
    ++i;
  }
  return g_format(value, units[i]);
}

void write_svg_plot(const Plot& plot, std::ostream& out) {
  std::vector<std::vector<PlotPoint>> cleaned;
  for (const auto& s : plot.series) cleaned.push_back(clean(s));
  const Domain d = domain_of(cleaned);
  const bool empty =
      std::all_of(cleaned.begin(), cleaned.end(), [](const auto& v) { return v.empty(); });

  const int rows = static_cast<int>((plot.series.size() + 1) / 2);
  const int height = kLegendTop + rows * kLegendRow;
  out << "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << kWidth << " " << height
      << "\" role=\"img\" data-series=\"" << plot.series.size() << "\">\n";
  out << "<title>" << xml_text(plot.title) << "</title>\n";
  out << "<text class=\"pt\" x=\"" << kLeft << "\" y=\"22\">" << xml_text(plot.title)
      << "</text>\n";
  if (!empty) {
    x_axis(d, out);
    y_axis(d, plot.unit, out);
  }
  out << "<rect class=\"frame\" stroke=\"" << plot_frame_color << "\" x=\"" << kLeft << "\" y=\""
      << kTop << "\" width=\"" << kRight - kLeft << "\" height=\"" << kBottom - kTop << "\"/>\n";
  out << "<text class=\"at\" x=\"" << (kLeft + kRight) / 2 << "\" y=\"" << kBottom + 40
      << "\" text-anchor=\"middle\">size per operation (log scale)</text>\n";
  out << "<text class=\"at\" transform=\"translate(14 " << (kTop + kBottom) / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << xml_text(plot.y_title)
      << " (log scale)</text>\n";
  if (empty) {
    out << "<text class=\"at\" x=\"" << (kLeft + kRight) / 2 << "\" y=\"" << (kTop + kBottom) / 2
        << "\" text-anchor=\"middle\">no data</text>\n";
  }
  for (std::size_t i = 0; i < cleaned.size(); ++i) {
    const auto color = plot_series_colors[i % plot_series_colors.size()];
    series(cleaned[i], color, i >= plot_series_colors.size(), d, out);
  }
  // Legend: a line and a marker per series, in the colours above, two to a row.
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const auto color = plot_series_colors[i % plot_series_colors.size()];
    const int x = kLeft + static_cast<int>(i % 2) * kLegendColumn;
    const int y = kLegendTop - 6 + static_cast<int>(i / 2) * kLegendRow;
    out << "<line class=\"line\" stroke=\"" << color << "\""
        << (i >= plot_series_colors.size() ? " stroke-dasharray=\"8 4\"" : "") << " x1=\"" << x
        << "\" y1=\"" << y << "\" x2=\"" << x + 24 << "\" y2=\"" << y << "\"/><circle fill=\""
        << color << "\" cx=\"" << x + 12 << "\" cy=\"" << y
        << "\" r=\"3.5\"/><text class=\"lg\" x=\"" << x + 30 << "\" y=\"" << y + 4 << "\">"
        << xml_text(truncated(plot.series[i].label)) << "<title>" << xml_text(plot.series[i].label)
        << "</title></text>\n";
  }
  out << "</svg>\n";
}

}  // namespace reports
