#!/usr/bin/python3
"""SVG -> TrueType or OpenType/CFF with FontForge's Python module (Debian's python3-fontforge); run by
container/engines/fonts.ts on an SVG it has already made safe (svg-safe.ts: no DOCTYPE, no external
references), which then hands TrueType to font_convert.py for woff, woff2 and eot.

    svg_font.py IN.svg OUT.(ttf|otf) FAMILY

An SVG font (an SVG 1.1 <font> element with <glyph>s) is read by FontForge as the font it is: its glyphs,
code points, family name and metrics. Any other SVG is a drawing and becomes an icon font of one glyph,
the drawing scaled to the em square (1000 units, ascent 800, descent 200) at U+E000, the first code
point of Unicode's Private Use Area, named "icon", in a font whose family is FAMILY (the file's name).
Exit 0 on success; on failure one line "CODE: message" on stderr and exit 2 (OPEN_FAILED: FontForge
does not read it; CONVERSION_FAILED: nothing drawable).
"""
import re
import sys

import fontforge

ICON_CODEPOINT = 0xE000
EM, ASCENT, DESCENT = 1000, 800, 200


def fail(code, message):
    sys.stderr.write(f"{code}: {message}\n")
    sys.exit(2)


def svg_font(path):
    try:
        font = fontforge.open(path)
    except Exception as e:  # FontForge raises EnvironmentError for what it cannot read
        fail("OPEN_FAILED", f"FontForge could not read the SVG font: {e}")
    if not any(font[g].isWorthOutputting() for g in font):
        fail("CONVERSION_FAILED", "the SVG font has no glyphs")
    return font


def icon_font(path, family):
    font = fontforge.font()
    font.em = EM
    font.ascent, font.descent = ASCENT, DESCENT
    name = re.sub(r"[^A-Za-z0-9-]", "", family)[:60] or "Icon"
    font.familyname = family[:60] or "Icon"
    font.fontname = name
    font.fullname = family[:60] or "Icon"
    glyph = font.createChar(ICON_CODEPOINT, "icon")
    try:
        glyph.importOutlines(path)
    except Exception as e:
        fail("OPEN_FAILED", f"FontForge could not read the SVG drawing: {e}")
    xmin, ymin, xmax, ymax = glyph.boundingBox()
    if xmax <= xmin or ymax <= ymin:
        fail("CONVERSION_FAILED", "the SVG draws no outline FontForge can make a glyph of")
    scale = min(EM / (xmax - xmin), EM / (ymax - ymin))
    glyph.transform((scale, 0, 0, scale, -xmin * scale, -ymin * scale - DESCENT))
    glyph.width = int(round((xmax - xmin) * scale))
    glyph.removeOverlap()
    glyph.correctDirection()
    return font


def main():
    if len(sys.argv) != 4:
        fail("OPEN_FAILED", "usage: svg_font.py IN.svg OUT.(ttf|otf) FAMILY")
    src, out, family = sys.argv[1:]
    with open(src, "rb") as f:
        head = f.read(1 << 20).decode("utf-8", "replace")
    font = svg_font(src) if re.search(r"<(?:\w+:)?font[\s>]", head) and "<glyph" in head else icon_font(src, family)
    try:
        font.generate(out)
    except Exception as e:
        fail("CONVERSION_FAILED", f"FontForge could not write the font: {e}")


if __name__ == "__main__":
    main()
