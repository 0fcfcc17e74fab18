"""What the browser checks share: finding Chromium, the skip exit, one headless screenshot.

check_html_plots.py and check_sequence_diagram.py import it (it sits beside them).
"""

import os
import shutil
import subprocess
import sys

SKIP = 77  # ctest's SKIP_RETURN_CODE


def skip(why):
    print("SKIP: " + why)
    sys.exit(SKIP)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(chromium, html, png, profile, width, height):
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--hide-scrollbars", "--force-color-profile=srgb",
           "--user-data-dir=" + profile, "--screenshot=" + png,
           "--window-size=%d,%d" % (width, height), "file://" + os.path.abspath(html)]
    # A guard against a browser that never exits, not a measurement.
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=240)
    if done.returncode != 0 or not os.path.exists(png):
        sys.exit("chromium failed (exit %d):\n%s" % (done.returncode,
                                                    done.stdout.decode(errors="replace")[-2000:]))
