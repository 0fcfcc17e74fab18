#!/usr/bin/python3
"""Renders an HTML report in headless Chromium and checks from the screenshot that its plots drew.

    check_html_plots.py REPORT_HTML [--hide-plots] [--expect-failure] [--keep-png FILE]

The page's plots (reports/svg_plot.hpp) draw their frame and their series in colours used
nowhere else on the page. The check counts the <svg class="plot"> elements in the HTML (n),
takes a screenshot, and counts pixels of exactly those colours: it passes when n >= 1, the
frame colour covers at least FRAME_PIXELS per plot and the series colours at least
SERIES_PIXELS per plot. So a page without plots fails, and so does one whose plots are in the
markup but did not draw (--hide-plots hides them with CSS to show that).

--expect-failure inverts the result: exit 0 when the check fails (the negative tests).
Exit 77 (ctest's SKIP_RETURN_CODE) when Chromium or python3-pil is missing: both come from
`bash ci/setup.sh --with-extras`.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

from headless import find_chromium, screenshot, skip

FRAME = (0x2F, 0x3E, 0x4E)  # plot_frame_color
SERIES = [(0x1F, 0x77, 0xB4), (0xD6, 0x27, 0x28), (0x2C, 0xA0, 0x2C), (0xFF, 0x7F, 0x0E),
          (0x94, 0x67, 0xBD), (0x8C, 0x56, 0x4B), (0xE3, 0x77, 0xC2), (0x17, 0xBE, 0xCF)]
FRAME_PIXELS = 1500   # the frame is 2 px wide around a 488 x 254 area: about 3000
SERIES_PIXELS = 200   # each marker alone is about 30; lines add far more
TOLERANCE = 2         # per channel, for a renderer that rounds differently
WIDTH, HEIGHT = 1280, 12000


def count_pixels(png):
    from PIL import Image
    img = Image.open(png).convert("RGB")
    colours = img.getcolors(maxcolors=img.width * img.height)
    def near(c, ref):
        return all(abs(a - b) <= TOLERANCE for a, b in zip(c, ref))
    frame = sum(n for n, c in colours if near(c, FRAME))
    series = sum(n for n, c in colours if any(near(c, s) for s in SERIES))
    return frame, series, img.size


def check(html_text, frame, series):
    """None when the plots drew, else why not."""
    plots = len(re.findall(r'<svg class="plot"', html_text))
    if plots == 0:
        return "the page has no plot"
    if frame < plots * FRAME_PIXELS:
        return "%d plots in the page, but only %d frame pixels drew (need %d)" % (
            plots, frame, plots * FRAME_PIXELS)
    if series < plots * SERIES_PIXELS:
        return "%d plots in the page, but only %d series pixels drew (need %d)" % (
            plots, series, plots * SERIES_PIXELS)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("html")
    ap.add_argument("--hide-plots", action="store_true",
                    help="render a copy whose plots are hidden with CSS (a negative test)")
    ap.add_argument("--expect-failure", action="store_true")
    ap.add_argument("--keep-png", help="copy the screenshot here")
    args = ap.parse_args()

    chromium = find_chromium()
    if not chromium:
        skip("chromium is not installed (bash ci/setup.sh --with-extras installs it)")
    try:
        import PIL  # noqa: F401
    except ImportError:
        skip("python3-pil is not installed (bash ci/setup.sh --with-extras installs it)")

    with open(args.html, encoding="utf-8", errors="replace") as f:
        html_text = f.read()
    with tempfile.TemporaryDirectory(prefix="rmabench_html_") as tmp:
        page = args.html
        if args.hide_plots:
            page = os.path.join(tmp, "hidden.html")
            with open(page, "w", encoding="utf-8") as f:
                f.write(html_text.replace(
                    "</head>", "<style>svg.plot * { visibility: hidden; }</style></head>", 1))
        png = os.path.join(tmp, "page.png")
        screenshot(chromium, page, png, os.path.join(tmp, "profile"), WIDTH, HEIGHT)
        frame, series, size = count_pixels(png)
        if args.keep_png:
            shutil.copyfile(png, args.keep_png)

    why = check(html_text, frame, series)
    print("%s: %dx%d screenshot, %d frame pixels, %d series pixels: %s" % (
        args.html, size[0], size[1], frame, series, why or "the plots drew"))
    if args.expect_failure:
        if why is None:
            sys.exit("FAIL: expected the check to fail on this page, but it passed")
        print("OK: the check fails on this page, as it must")
        return 0
    return 0 if why is None else 1


if __name__ == "__main__":
    sys.exit(main())
