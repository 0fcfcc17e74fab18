// reports/svg_plot.hpp — a value-against-message-size plot as inline SVG, for the HTML report.
//
// Both axes are logarithmic: sizes (x) in powers of two labelled in B/KiB/MiB, values (y) in
// decades labelled in the value's unit. Each series is a line with a marker per point and,
// where a point has a spread, a translucent min-max band; a legend below names the series,
// and each marker's tooltip (an SVG <title>, no script) gives its numbers. The SVG has class
// "plot", is 590 px wide and as tall as its legend needs, so a page shows two side by side.
//
// The colours are fixed and appear nowhere else on the page, so a screenshot can be checked
// for plots that drew (reports/testing/check_html_plots.py counts those pixels).
//
//   Plot p{"put_latency: latency", "time per iteration", PlotUnit::microseconds, {series}};
//   write_svg_plot(p, out);
#pragma once

#include <array>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace reports {

enum class PlotUnit { microseconds, bytes_per_second };

struct PlotPoint {
  double x = 0;   // bytes, > 0
  double y = 0;   // the median, > 0
  double lo = 0;  // the band, lo <= y <= hi; lo == hi == y when there is none
  double hi = 0;
  std::string tip;  // tooltip text
};

struct PlotSeries {
  std::string label;
  std::vector<PlotPoint> points;  // any order; points that are not > 0 are left out
};

struct Plot {
  std::string title;
  std::string y_title;
  PlotUnit unit = PlotUnit::microseconds;
  std::vector<PlotSeries> series;
};

// Series colours, in order (a ninth series reuses the first colour with a dashed line).
inline constexpr std::array<std::string_view, 8> plot_series_colors{
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
// The plot area's frame, drawn 2 px wide on whole pixels so its colour survives antialiasing
// (488 x 254 px inside).
inline constexpr std::string_view plot_frame_color = "#2f3e4e";

// The plots' stylesheet: the page that shows them puts it in its <style> once.
extern const std::string_view svg_plot_css;

void write_svg_plot(const Plot& plot, std::ostream& out);

// "1 B", "512 B", "4 KiB", "1.5 MiB": a size in bytes, binary units.
std::string format_bytes(double bytes);
// A tick or tooltip value in the plot's unit: "250 ns", "1.5 µs", "12 MB/s" (%g precision).
std::string format_plot_value(double value, PlotUnit unit);

}  // namespace reports
