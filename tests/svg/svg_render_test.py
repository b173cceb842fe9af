#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""--svg renders: for each kind of run (a plain run, a sweep, a timed run
with --timeline, --latency, a --compare of two sessions), ddtime writes an SVG file that is well-formed
XML with an <svg> root of the declared size, and rsvg-convert (Debian's
librsvg2-bin) renders it to a PNG of exactly that size.

Usage: svg_render_test.py --ddtime PATH
Exit status 0: all passed; 1: a failure; 77: rsvg-convert is missing (a
skip, said on standard output; never a silent pass).
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

SVG_NAMESPACE = "{http://www.w3.org/2000/svg}"

KINDS = {
    "plain": ["if=/dev/zero", "of=/dev/null", "bs=64k", "count=200"],
    "sweep": ["if=/dev/zero", "of=/dev/null", "count=64", "--sweep=bs=4k,64k,1M", "--repeat=2"],
    "timeline": ["if=/dev/zero", "of=/dev/null", "bs=64k", "--time=300ms", "--timeline"],
    "latency": ["if=/dev/zero", "of=/dev/null", "bs=4k", "count=2000", "--latency"],
    "sweep+latency+timeline": ["if=/dev/zero", "of=/dev/null", "--size=64M", "--time=100ms", "--timeline",
                               "--latency", "--sweep=bs=4k,64k"],
}


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


def check(ddtime, kind, args, directory):
    svg = os.path.join(directory, kind.replace("+", "_") + ".svg")
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
    print(f"ok {kind}: {width}x{height}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ddtime", required=True)
    options = parser.parse_args()
    if shutil.which("rsvg-convert") is None:
        print("SKIP: rsvg-convert is not installed (Debian package librsvg2-bin)")
        return 77
    failures = 0
    with tempfile.TemporaryDirectory() as directory:
        # A comparison's chart: two sessions made here, then compared.
        kinds = dict(KINDS)
        documents = []
        for name, bs in (("a.json", "4k"), ("b.json", "64k")):
            path = os.path.join(directory, name)
            subprocess.run([options.ddtime, "if=/dev/zero", "of=/dev/null", "--size=16M", "bs=" + bs, "--repeat=5",
                            "--json=" + path], capture_output=True, check=True, timeout=60)
            documents.append(path)
        kinds["comparison"] = ["--compare", *documents, "--force"]
        for kind, args in kinds.items():
            try:
                check(options.ddtime, kind, args, directory)
            except (AssertionError, ElementTree.ParseError, OSError, ValueError, TypeError) as error:
                print(f"FAIL {kind}: {error}")
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
