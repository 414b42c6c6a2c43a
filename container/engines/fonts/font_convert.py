#!/usr/bin/python3
"""Converts one font between TrueType, OpenType/CFF, WOFF, WOFF2, EOT and SVG fonts with fontTools
(container/engines/fonts.ts runs it; Debian's python3-fonttools and python3-brotli).

    font_convert.py IN OUT FORMAT        FORMAT: ttf | otf | woff | woff2 | eot | svg

Glyph order, glyph count, names, hmtx/hhea/OS/2 metrics and the cmap are kept: the outlines change
form only where the target needs it (CFF cubics -> TrueType quadratics within 1 font unit with cu2qu;
quadratics -> cubics exactly). Exit 0 on success; on failure one line "CODE: message" on stderr and
exit 2 (OPEN_FAILED: not a font this reads; UNSUPPORTED: a font it reads but cannot convert).
"""
import struct
import sys
from xml.sax.saxutils import quoteattr

from fontTools.ttLib import TTFont, TTLibError, newTable

EOT_MAGIC = 0x504C
EOT_COMPRESSED = 0x4
EOT_XOR = 0x10000000


class Fail(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def read_eot(data):
    """The sfnt inside an Embedded OpenType file (versions 0x00010000, 0x00020001, 0x00020002)."""
    if len(data) < 82:
        raise Fail("OPEN_FAILED", "the EOT header is truncated")
    eot_size, font_size, version, flags = struct.unpack_from("<IIII", data, 0)
    magic = struct.unpack_from("<H", data, 34)[0]
    if magic != EOT_MAGIC or version not in (0x00010000, 0x00020001, 0x00020002):
        raise Fail("OPEN_FAILED", "not an Embedded OpenType file (bad magic number or version)")
    if flags & EOT_COMPRESSED:
        raise Fail("UNSUPPORTED", "the EOT font data is MicroType Express compressed, which this engine does not read")
    pos = 82  # after Reserved4 and Padding1

    def skip_name(pos):
        if pos + 2 > len(data):
            raise Fail("OPEN_FAILED", "the EOT header is truncated")
        size = struct.unpack_from("<H", data, pos)[0]
        return pos + 2 + size

    pos = skip_name(pos)  # family
    for _ in range(3):  # style, version, full name: each after 2 bytes of padding
        pos = skip_name(pos + 2)
    if version >= 0x00020001:
        pos = skip_name(pos + 2)  # root string
    if version == 0x00020002:
        pos += 4 + 4 + 2  # RootStringCheckSum, EUDCCodePage, Padding6
        if pos + 2 > len(data):
            raise Fail("OPEN_FAILED", "the EOT header is truncated")
        sig = struct.unpack_from("<H", data, pos)[0]
        pos += 2 + sig + 4  # signature, EUDCFlags
        eudc = struct.unpack_from("<I", data, pos)[0]
        pos += 4 + eudc
    if pos + font_size > len(data) or eot_size > len(data) + 16:
        raise Fail("OPEN_FAILED", "the EOT font data is truncated")
    font = bytes(data[pos : pos + font_size])
    if flags & EOT_XOR:
        font = bytes(b ^ 0x50 for b in font)
    return font


def utf16(s):
    b = s.encode("utf-16-le")
    return struct.pack("<H", len(b)) + b


def write_eot(font, sfnt):
    """An uncompressed EOT 0x00020001 around `sfnt` (the bytes of `font` saved as TrueType/CFF)."""
    os2 = font["OS/2"] if "OS/2" in font else None
    name = font["name"]
    get = lambda i: (name.getDebugName(i) or "")
    panose = b"\0" * 10
    if os2 is not None and hasattr(os2, "panose"):
        p = os2.panose
        panose = bytes(
            [
                p.bFamilyType,
                p.bSerifStyle,
                p.bWeight,
                p.bProportion,
                p.bContrast,
                p.bStrokeVariation,
                p.bArmStyle,
                p.bLetterForm,
                p.bMidline,
                p.bXHeight,
            ]
        )
    italic = 1 if os2 is not None and os2.fsSelection & 1 else 0
    weight = os2.usWeightClass if os2 is not None else 400
    fs_type = os2.fsType if os2 is not None else 0
    ur = [getattr(os2, f"ulUnicodeRange{i}", 0) for i in range(1, 5)] if os2 is not None else [0] * 4
    cp = [getattr(os2, f"ulCodePageRange{i}", 0) for i in range(1, 3)] if os2 is not None else [0] * 2
    body = (
        struct.pack("<I", 0x00020001)
        + struct.pack("<I", 0)
        + panose
        + struct.pack("<BBIHH", 1, italic, weight, fs_type, EOT_MAGIC)
        + struct.pack("<IIII", *ur)
        + struct.pack("<II", *cp)
        + struct.pack("<I", font["head"].checkSumAdjustment)
        + struct.pack("<IIII", 0, 0, 0, 0)
        + struct.pack("<H", 0)
        + utf16(get(1))
        + struct.pack("<H", 0)
        + utf16(get(2))
        + struct.pack("<H", 0)
        + utf16(get(5))
        + struct.pack("<H", 0)
        + utf16(get(4))
        + struct.pack("<H", 0)
        + utf16("")
    )
    total = 8 + len(body) + len(sfnt)
    return struct.pack("<II", total, len(sfnt)) + body + sfnt


def glyf_from_cff(font):
    """CFF outlines -> TrueType glyf (fontTools' otf2ttf recipe: cu2qu within 1 unit)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    if "CFF " not in font:
        raise Fail("UNSUPPORTED", "CFF2 (variable OpenType) fonts are not converted to TrueType here")
    order = font.getGlyphOrder()
    gs = font.getGlyphSet()
    glyphs = {}
    for gn in order:
        pen = TTGlyphPen(gs)
        gs[gn].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
        glyphs[gn] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for gn, g in glyf.glyphs.items():
        if hasattr(g, "xMin"):
            hmtx[gn] = (hmtx[gn][0], g.xMin)
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for k in ("maxZones",):
        setattr(maxp, k, 1)
    for k in (
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(maxp, k, 0)
    maxp.compile(font)
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"


def cff_from_glyf(font):
    """TrueType glyf outlines -> CFF (quadratic curves become exact cubics; hinting is dropped)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    order = font.getGlyphOrder()
    gs = font.getGlyphSet()
    hmtx = font["hmtx"]
    charstrings = {}
    for gn in order:
        pen = T2CharStringPen(hmtx[gn][0], gs)
        gs[gn].draw(pen)
        charstrings[gn] = pen.getCharString()
    name = font["name"]
    ps = (name.getDebugName(6) or name.getDebugName(4) or "Font").replace(" ", "")
    info = {
        "FullName": name.getDebugName(4) or ps,
        "FamilyName": name.getDebugName(1) or ps,
        "Weight": name.getDebugName(2) or "Regular",
    }
    for tag in ("glyf", "loca", "cvt ", "fpgm", "prep", "hdmx", "LTSH", "VDMX", "gasp"):
        if tag in font:
            del font[tag]
    fb = FontBuilder(font=font)
    fb.isTTF = False
    fb.setupCFF(ps, info, charstrings, {})
    maxp = font["maxp"]
    maxp.tableVersion = 0x00005000
    post = font["post"]
    post.formatType = 3.0
    font.sfntVersion = "OTTO"


def svg_font(font):
    """The font as an SVG 1.1 font (<font>, <font-face>, one <glyph> per glyph; .notdef is <missing-glyph>)."""
    from fontTools.pens.svgPathPen import SVGPathPen

    name = font["name"]
    head, hhea = font["head"], font["hhea"]
    os2 = font["OS/2"] if "OS/2" in font else None
    order = font.getGlyphOrder()
    gs = font.getGlyphSet()
    hmtx = font["hmtx"]
    by_glyph = {}
    for code, gn in sorted((font.getBestCmap() or {}).items()):
        by_glyph.setdefault(gn, code)
    family = name.getDebugName(1) or "Font"
    face = {
        "font-family": family,
        "font-weight": str(os2.usWeightClass if os2 else 400),
        "font-style": "italic" if os2 is not None and os2.fsSelection & 1 else "normal",
        "units-per-em": str(head.unitsPerEm),
        "ascent": str(hhea.ascent),
        "descent": str(hhea.descent),
        "bbox": f"{head.xMin} {head.yMin} {head.xMax} {head.yMax}",
    }
    if os2 is not None and getattr(os2, "sxHeight", 0):
        face["x-height"] = str(os2.sxHeight)
    if os2 is not None and getattr(os2, "sCapHeight", 0):
        face["cap-height"] = str(os2.sCapHeight)
    out = ['<?xml version="1.0" standalone="no"?>', '<svg xmlns="http://www.w3.org/2000/svg">', "<defs>"]
    fid = (name.getDebugName(6) or family).replace(" ", "")
    out.append(f'<font id={quoteattr(fid)} horiz-adv-x="{hmtx[order[0]][0]}">')
    out.append("<font-face " + " ".join(f"{k}={quoteattr(v)}" for k, v in face.items()) + "/>")
    for i, gn in enumerate(order):
        pen = SVGPathPen(gs)
        gs[gn].draw(pen)
        attrs = {"glyph-name": gn, "horiz-adv-x": str(hmtx[gn][0])}
        code = by_glyph.get(gn)
        if code is not None:
            attrs["unicode"] = chr(code)
        d = pen.getCommands()
        if d:
            attrs["d"] = d
        tag = "missing-glyph" if i == 0 else "glyph"
        if tag == "missing-glyph":
            attrs.pop("glyph-name", None)
            attrs.pop("unicode", None)
        text = " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items())
        text = "".join(c if c.isprintable() or c in "\t" else f"&#x{ord(c):x};" for c in text)
        out.append(f"<{tag} {text}/>")
    out += ["</font>", "</defs>", "</svg>", ""]
    return "\n".join(out).encode("utf-8")


def main(src, dst, fmt):
    with open(src, "rb") as f:
        data = f.read()
    if data[:4] in (b"wOFF", b"wOF2", b"OTTO", b"\x00\x01\x00\x00", b"true"):
        raw = data
    elif len(data) >= 36 and struct.unpack_from("<H", data, 34)[0] == EOT_MAGIC:
        raw = read_eot(data)
    else:
        raise Fail("OPEN_FAILED", "not a TrueType, OpenType, WOFF, WOFF2 or EOT font")
    import io

    try:
        font = TTFont(io.BytesIO(raw), lazy=False)
        font.getGlyphOrder()
        for tag in ("head", "hhea", "hmtx", "maxp", "name", "cmap"):
            if tag not in font:
                raise Fail("OPEN_FAILED", f"the font has no {tag} table")
            font[tag]
    except Fail:
        raise
    except Exception as e:  # fontTools raises many kinds on damaged tables
        raise Fail("OPEN_FAILED", f"the font is damaged: {type(e).__name__}: {e}")
    if "fvar" in font and fmt in ("ttf", "otf", "eot", "svg") and ("CFF2" in font):
        raise Fail("UNSUPPORTED", "variable CFF2 fonts are not converted here")
    font.flavor = None
    cubic = "CFF " in font or "CFF2" in font
    try:
        if fmt in ("ttf", "eot") and cubic:
            glyf_from_cff(font)
        elif fmt == "otf" and not cubic:
            cff_from_glyf(font)
        if fmt == "svg":
            out = svg_font(font)
        else:
            if fmt in ("woff", "woff2"):
                font.flavor = fmt
            buf = io.BytesIO()
            font.save(buf)
            out = buf.getvalue()
            if fmt == "eot":
                out = write_eot(TTFont(io.BytesIO(out)), out)
    except Fail:
        raise
    except Exception as e:
        raise Fail("UNSUPPORTED", f"the font could not be converted to {fmt}: {type(e).__name__}: {e}")
    with open(dst, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    try:
        if len(sys.argv) != 4 or sys.argv[3] not in ("ttf", "otf", "woff", "woff2", "eot", "svg"):
            raise Fail("INVALID_CONVERSION_TYPE", "usage: font_convert.py IN OUT ttf|otf|woff|woff2|eot|svg")
        main(*sys.argv[1:])
    except Fail as e:
        sys.stderr.write(f"{e.code}: {e}\n")
        sys.exit(2)
