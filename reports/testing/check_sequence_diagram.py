#!/usr/bin/python3
"""Renders a report.html in headless Chromium and checks that its sequence diagram drew.

    check_sequence_diagram.py REPORT_HTML --arrows N [--rank-states] [--hide-arrows]
                              [--expect-failure] [--keep-png FILE]

Packet arrows (<g class="packet"> in <svg class="sequence">, reports/sequence_svg.hpp) are
drawn in one colour used nowhere else on the page. The check counts the arrows in the markup
(exactly N), takes a screenshot and counts pixels of that colour: at least ARROW_PIXELS per
arrow. With --rank-states, the rank states must sit beside the diagram (in the same
sequence-row). --hide-arrows renders a copy whose arrows are hidden with CSS (the negative
test: the markup is there, nothing drew). --expect-failure inverts the result.

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

ARROW = (0xB8, 0x33, 0x6A)  # sequence_arrow_color
ARROW_PIXELS = 120          # a 2 px line across one lane (about 140 px) and its head
TOLERANCE = 2
WIDTH, HEIGHT = 1280, 6000


def arrow_pixels(png):
    from PIL import Image
    img = Image.open(png).convert("RGB")
    colours = img.getcolors(maxcolors=img.width * img.height)
    n = sum(k for k, c in colours if all(abs(a - b) <= TOLERANCE for a, b in zip(c, ARROW)))
    return n, img.size


def check(html_text, arrows_wanted, pixels, rank_states):
    """None when the diagram drew as asked, else why not."""
    diagrams = len(re.findall(r'<svg class="sequence"', html_text))
    if diagrams == 0:
        return "the page has no sequence diagram"
    arrows = len(re.findall(r'<g class="packet">', html_text))
    if arrows != arrows_wanted:
        return "%d packet arrows in the page, expected %d" % (arrows, arrows_wanted)
    if pixels < arrows * ARROW_PIXELS:
        return "%d arrows in the page, but only %d arrow pixels drew (need %d)" % (
            arrows, pixels, arrows * ARROW_PIXELS)
    if rank_states:
        row = re.search(r'<div class="sequence-row">(.*?)</section>', html_text, re.S)
        if not row or '<svg class="sequence"' not in row.group(1) or \
                'class="rank-state"' not in row.group(1):
            return "the rank states are not beside the diagram"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("html")
    ap.add_argument("--arrows", type=int, required=True)
    ap.add_argument("--rank-states", action="store_true")
    ap.add_argument("--hide-arrows", action="store_true")
    ap.add_argument("--expect-failure", action="store_true")
    ap.add_argument("--keep-png")
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
    with tempfile.TemporaryDirectory(prefix="rmabench_seq_") as tmp:
        page = args.html
        if args.hide_arrows:
            page = os.path.join(tmp, "hidden.html")
            with open(page, "w", encoding="utf-8") as f:
                f.write(html_text.replace(
                    "</head>", "<style>svg.sequence g.packet { visibility: hidden; }</style></head>",
                    1))
        png = os.path.join(tmp, "page.png")
        screenshot(chromium, page, png, os.path.join(tmp, "profile"), WIDTH, HEIGHT)
        pixels, size = arrow_pixels(png)
        if args.keep_png:
            shutil.copyfile(png, args.keep_png)

    why = check(html_text, args.arrows, pixels, args.rank_states)
    print("%s: %dx%d screenshot, %d arrow pixels: %s" % (
        args.html, size[0], size[1], pixels, why or "the diagram drew"))
    if args.expect_failure:
        if why is None:
            sys.exit("FAIL: expected the check to fail on this page, but it passed")
        print("OK: the check fails on this page, as it must")
        return 0
    return 0 if why is None else 1


if __name__ == "__main__":
    sys.exit(main())
