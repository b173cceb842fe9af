#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""--svg renders: for each kind of chart (a plain run, a zero-length run, a
sweep, a session with whiskers, a read-back, a timed run with --timeline,
--latency, a profile of reads, of reads and writes, and one interrupted by
SIGINT, a sweep interrupted too, a --compare of two sessions, of two profiles and of five
documents), ddtime writes an SVG file that is well-formed XML with an <svg>
root of the declared size, that rsvg-convert (Debian's librsvg2-bin)
renders to a PNG of exactly that size, and whose text says what it shows
(issue rule 8): no two text boxes overlap and none leaves the page.

A text's box is computed from its font size, its text-anchor and its
rotation, with an upper bound of each glyph's width in the fonts a viewer
picks for the generic families (DejaVu Sans, Sans Mono on Debian):
sans-serif's widest capitals count 1 em, other capitals 0.8 em, digits and
lower case 0.65 em, narrow marks 0.4 em, bold 12% more; monospace 0.6 em.

Usage: svg_render_test.py --ddtime PATH
Exit status 0: all passed; 1: a failure; 77: rsvg-convert is missing (a
skip, said on standard output; never a silent pass).
"""

import argparse
import math
import os
import re
import signal
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"

KINDS = {
    "plain": ["if=/dev/zero", "of=/dev/null", "bs=64k", "count=200"],
    "sweep": ["if=/dev/zero", "of=/dev/null", "count=64", "--sweep=bs=4k,64k,1M", "--repeat=2"],
    "timeline": ["if=/dev/zero", "of=/dev/null", "bs=64k", "--time=300ms", "--timeline"],
    "latency": ["if=/dev/zero", "of=/dev/null", "bs=4k", "count=2000", "--latency"],
    "sweep+latency+timeline": ["if=/dev/zero", "of=/dev/null", "--size=64M", "--time=100ms", "--timeline",
                               "--latency", "--sweep=bs=4k,64k"],
    "zero": ["if=/dev/zero", "of=/dev/null", "count=0"],
    "session": ["if=/dev/zero", "of=/dev/null", "bs=64k", "count=100", "--repeat=6"],
}

# A profile's options that keep it short: the tests' target is a file made here.
PROFILE = ["--size=16M", "--time=100ms", "--repeat=2", "--warmup=0", "--pause=0"]

# The glyph-width bounds of the module's docstring, in em.
WIDEST = set("MWmw\u00d7\u2014@%")
NARROW = set(" .,:;'|!()[]il-/")


def glyph_em(character, monospace):
    if monospace:
        return 0.6
    if character in WIDEST or ord(character) > 0x2000:
        return 1.0
    if character in NARROW:
        return 0.4
    if character.isupper():
        return 0.8
    return 0.65


def styles(root):
    """Each class's (font size, bold, monospace) from the embedded style sheet."""
    sheet = "".join(element.text or "" for element in root.iter(SVG_NAMESPACE + "style"))
    found = {}
    for name, body in re.findall(r"([a-z.][a-z0-9-]*)\{([^}]*)\}", sheet):
        size = re.search(r"font-size:([0-9.]+)px", body)
        found[name] = (float(size.group(1)) if size else None, "font-weight:bold" in body, "monospace" in body)
    return found


def text_boxes(root):
    """Each <text>'s words and its box as four corners (after its rotation)."""
    sheet = styles(root)
    base_size = sheet.get("text", (12, False, False))[0] or 12
    boxes = []
    for text in root.iter(SVG_NAMESPACE + "text"):
        words = "".join(text.itertext())
        if not words:
            continue
        size, bold, monospace = sheet.get("." + text.get("class", ""), (None, False, False))
        size = size or base_size
        width = sum(glyph_em(c, monospace) for c in words) * size * (1.12 if bold and not monospace else 1)
        x, y = float(text.get("x", 0)), float(text.get("y", 0))
        anchor = text.get("text-anchor", "start")
        left = x - (width if anchor == "end" else width / 2 if anchor == "middle" else 0)
        # Ascent and descent together one em: what a line of the size needs.
        corners = [(left, y - 0.76 * size), (left + width, y - 0.76 * size), (left + width, y + 0.24 * size),
                   (left, y + 0.24 * size)]
        turn = re.match(r"rotate\(([-0-9.]+) ([-0-9.]+) ([-0-9.]+)\)", text.get("transform", ""))
        if turn:
            degrees, cx, cy = (float(v) for v in turn.groups())
            c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
            corners = [(cx + (px - cx) * c - (py - cy) * s, cy + (px - cx) * s + (py - cy) * c) for px, py in corners]
        boxes.append((words, corners))
    return boxes


def separated(a, b):
    """Whether an edge's normal of either quadrangle separates them (by 0.5 px of slack)."""
    for quad in (a, b):
        for i in range(4):
            (x1, y1), (x2, y2) = quad[i], quad[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            length = math.hypot(nx, ny) or 1
            pa = [(px * nx + py * ny) / length for px, py in a]
            pb = [(px * nx + py * ny) / length for px, py in b]
            if max(pa) <= min(pb) + 0.5 or max(pb) <= min(pa) + 0.5:
                return True
    return False


def layout_problems(path):
    """Rule 8's check: the texts that overlap another or leave the page."""
    return layout_problems_of(ElementTree.parse(path).getroot())


def layout_problems_of(root):
    """layout_problems of a parsed document (tests/combo/combo.py's svg-layout too)."""
    view = [float(v) for v in root.get("viewBox").split()]
    boxes = text_boxes(root)
    problems = []
    for words, corners in boxes:
        if any(x < view[0] - 0.5 or y < view[1] - 0.5 or x > view[0] + view[2] + 0.5 or y > view[1] + view[3] + 0.5
               for x, y in corners):
            problems.append(f"{words!r} leaves the page")
        if "\u2026" in words:
            problems.append(f"{words!r} is cut")
    for i, (words, corners) in enumerate(boxes):
        for other, other_corners in boxes[i + 1:]:
            if not separated(corners, other_corners):
                problems.append(f"{words!r} overlaps {other!r}")
    return problems


def declared_size(path):
    """The root's width and height, after checking it is a well-formed <svg>."""
    root = ElementTree.parse(path).getroot()
    if root.tag != SVG_NAMESPACE + "svg":
        raise AssertionError(f"{path}: root is {root.tag}, not svg")
    return int(root.get("width")), int(root.get("height"))


def png_size(path):
    """Width and height from the PNG's IHDR chunk."""
    with open(path, "rb") as png:
        head = png.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise AssertionError(f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def interrupted(ddtime, args, after):
    """ddtime's exit status after a SIGINT sent `after` seconds into its run."""
    child = subprocess.Popen([ddtime, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(after)
    child.send_signal(signal.SIGINT)
    child.communicate(timeout=60)
    return child.returncode


def check(ddtime, kind, args, directory):
    svg = os.path.join(directory, kind.replace("+", "_") + ".svg")
    if kind.startswith("interrupted"):
        status = interrupted(ddtime, [*args, "--svg=" + svg], 0.5)
        if status not in (130, -signal.SIGINT):
            raise AssertionError(f"{kind}: ddtime exited {status} after SIGINT")
        # The title's lines joined: it may wrap anywhere between words.
        words = " ".join("".join(t.itertext()) for t in ElementTree.parse(svg).getroot().iter(SVG_NAMESPACE + "text"))
        if "interrupted by SIGINT" not in words:
            raise AssertionError(f"{kind}: the chart does not say it was interrupted")
    else:
        run = subprocess.run([ddtime, *args, "--svg=" + svg], capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            raise AssertionError(f"{kind}: ddtime exited {run.returncode}: {run.stderr}")
    with open(svg, encoding="utf-8") as text:
        content = text.read()
    if kind == "comparison" and "faster" not in content and "slower" not in content and "~" not in content:
        raise AssertionError(f"{kind}: no verdict in the document")
    for word in ("nan", "inf\"", "NaN", "Inf"):
        if word in content:
            raise AssertionError(f"{kind}: {word!r} in the document")
    width, height = declared_size(svg)
    png = svg[:-4] + ".png"
    render = subprocess.run(["rsvg-convert", "-o", png, svg], capture_output=True, text=True, timeout=60)
    if render.returncode != 0 or render.stderr:
        raise AssertionError(f"{kind}: rsvg-convert: {render.returncode} {render.stderr}")
    if png_size(png) != (width, height):
        raise AssertionError(f"{kind}: PNG {png_size(png)} is not the declared {width}x{height}")
    problems = layout_problems(svg)
    if problems:
        raise AssertionError(f"{kind}: " + "; ".join(problems))
    print(f"ok {kind}: {width}x{height}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ddtime", required=True)
    parser.add_argument("--keep", help="a directory to leave the SVG and PNG files in, to look at")
    options = parser.parse_args()
    if shutil.which("rsvg-convert") is None:
        print("SKIP: rsvg-convert is not installed (Debian package librsvg2-bin)")
        return 77
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        directory = options.keep or scratch
        os.makedirs(directory, exist_ok=True)
        # A comparison's chart: two sessions made here, then compared.
        kinds = dict(KINDS)
        documents = []
        for name, bs in (("a.json", "4k"), ("b.json", "64k"), ("c.json", "1M"), ("d.json", "16k"), ("e.json", "8k")):
            path = os.path.join(directory, name)
            subprocess.run([options.ddtime, "if=/dev/zero", "of=/dev/null", "--size=16M", "bs=" + bs, "--repeat=5",
                            "--json=" + path], capture_output=True, check=True, timeout=60)
            documents.append(path)
        kinds["comparison"] = ["--compare", *documents[:2], "--force"]
        kinds["comparison of five"] = ["--compare", *documents, "--force"]
        # A profile's target: a file in this directory (O_DIRECT where the file system has it).
        target = os.path.join(directory, "target.img")
        with open(target, "wb") as image:
            image.write(os.urandom(16 << 20))
        output = os.path.join(directory, "written.img")
        kinds["readback"] = ["if=" + target, "of=" + output, "bs=1M", "--readback"]
        kinds["profile of reads"] = ["--profile=diskmark", "if=" + target, *PROFILE]
        # A file of its own: the read-back's output holds data by then, which a
        # profile refuses to overwrite without --force (issue 28, rule 1).
        kinds["profile of reads and writes"] = ["--profile=diskmark", "of=" + os.path.join(directory, "scratch.img"),
                                                *PROFILE]
        kinds["interrupted profile"] = ["--profile=diskmark", "if=" + target, *PROFILE[:1], "--time=200ms",
                                        *PROFILE[2:]]
        kinds["interrupted sweep"] = ["if=/dev/zero", "of=/dev/null", "--sweep=bs=4k,64k,1M,16M", "--size=4G",
                                      "--repeat=3"]
        profiles = []
        for name in ("p1.json", "p2.json"):
            profiles.append(os.path.join(directory, name))
            subprocess.run([options.ddtime, "--profile=diskmark", "if=" + target, *PROFILE, "--json=" + profiles[-1]],
                           capture_output=True, check=True, timeout=120)
        kinds["comparison of profiles"] = ["--compare", *profiles]
        for kind, args in kinds.items():
            try:
                check(options.ddtime, kind, args, directory)
            except (AssertionError, ElementTree.ParseError, OSError, ValueError, TypeError) as error:
                print(f"FAIL {kind}: {error}")
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
