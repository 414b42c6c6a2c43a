"""The scale Inkscape's DXF import should use (issue 44: an AutoCAD 2000 DWG → png came out 2 x 2 pixels, blank).

Usage: python3 dxf_extents.py IN.dxf -> prints 210 / (the model space's width in drawing units), or nothing.
Inkscape's dxf_input.py --scalemethod=auto takes the width from the header's $EXTMIN/$EXTMAX, which AutoCAD 2000
files often leave stale (far larger than what is drawn: the drawing shrinks to a pixel) or at +-1e20 (every
coordinate is lost). This measures what the entities themselves cover with ezdxf (Debian's python3-ezdxf) and gives
auto's own rule on it: fit the width to 210 mm. Nothing the drawing names is opened; ezdxf reads only this file.
Prints nothing (exit 0) when the extents cannot be measured, so the caller keeps Inkscape's own rule.
"""

import sys


def main() -> None:
    try:
        from ezdxf import bbox, recover

        doc, _auditor = recover.readfile(sys.argv[1])
        box = bbox.extents(doc.modelspace(), fast=True)
    except Exception:  # not measurable: the import decides as before
        return
    if not box.has_data:
        return
    width = box.size.x if box.size.x > 0 else box.size.y
    if width > 0 and width < 1e15:
        print(repr(210.0 / width))


if __name__ == "__main__":
    main()
