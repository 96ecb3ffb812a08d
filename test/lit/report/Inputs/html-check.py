"""Checks that an HTML page is well-formed (parses as XML) and self-contained: no script, no stylesheet or
image fetched from anywhere (src=, href=, <link>, url(), @import).  Prints `html: ok`, the page's tables and
chart bars, or the problem (exit 1)."""
import re
import sys
import xml.etree.ElementTree as ET

text = open(sys.argv[1], encoding="utf-8").read()
root = ET.fromstring(text.split("\n", 1)[1] if text.startswith("<!DOCTYPE") else text)
for bad in (r"<script", r"\ssrc=", r"\shref=", r"<link", r"url\(", r"@import", r"<iframe", r"<object"):
    if re.search(bad, text, re.I):
        print("html: not self-contained: %s" % bad)
        sys.exit(1)
tables = len(root.findall(".//table"))
bars = len(root.findall(".//{http://www.w3.org/2000/svg}rect"))
print("html: ok, %d tables, %d chart bars" % (tables, bars))
