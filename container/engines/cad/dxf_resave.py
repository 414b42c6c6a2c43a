"""DXF -> DXF (issue 33): reads an ASCII DXF with ezdxf (Debian's python3-ezdxf) and writes it again.

Usage: python3 dxf_resave.py IN.dxf OUT.dxf, or --version (prints "ezdxf <version>").
ezdxf's recover loader reads the drawing (it repairs what the DXF reference allows: missing handles, tables,
an absent HEADER) and saveas() writes it in the DXF version it came in, R12 (AC1009) to 2018 (AC1032).
Nothing the drawing names (XREF paths, image files, fonts) is opened: ezdxf reads only the one file.
Failures print "CODE: message" on stderr and exit 2: OPEN_FAILED (not a DXF ezdxf reads, or damaged beyond repair).
"""

import sys


def fail(code: str, message: str) -> None:
    sys.stderr.write(f"{code}: {message}\n")
    sys.exit(2)


def main() -> None:
    import ezdxf
    from ezdxf import recover

    if sys.argv[1:] == ["--version"]:
        print("ezdxf", ezdxf.__version__)
        return
    if len(sys.argv) != 3:
        fail("OPEN_FAILED", "usage: dxf_resave.py IN.dxf OUT.dxf")
    try:
        doc, auditor = recover.readfile(sys.argv[1])
    except Exception as e:  # ezdxf raises DXFStructureError, ValueError, IndexError… on damaged input
        fail("OPEN_FAILED", f"not a DXF drawing it reads ({type(e).__name__}: {e})")
    if auditor.has_errors:
        fail("OPEN_FAILED", f"the drawing is damaged beyond repair: {auditor.errors[0].message}")
    doc.saveas(sys.argv[2])


if __name__ == "__main__":
    main()
