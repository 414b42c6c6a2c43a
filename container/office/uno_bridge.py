#!/usr/bin/python3
"""UNO bridge for one warm LibreOffice process (see pool.ts).

Usage: /usr/bin/python3 uno_bridge.py <pipe-name> [connect-timeout-seconds]

Connects to a soffice started with --accept=pipe,name=<pipe-name>;urp; (retrying while it starts,
30 s by default), then speaks JSON lines:

  stdout, once:  {"ready": true}   or   {"ready": false, "code": "ENGINE_UNAVAILABLE", "message": "..."}
  stdin,  each:  {"id": n, "input": "/abs/in", "output": "/abs/out", "format": "pdf"|"docx"|... (EXPORTS), "password": "..."?,
                  "filter_options": "..."? (the export filter's FilterOptions: csv/txt encoding, delimiter, sheet),
                  "import_filter": "writer_pdf_import"|"draw_pdf_import"|"impress_pdf_import"? (PDF input)
                                   | "Text - txt - csv (StarCalc)"? (delimited text),
                  "import_options": "..."? (the import filter's FilterOptions: the CSV import's separator, charset…)}
  stdout, each:  {"id": n, "ok": true, "fonts": ["Arial", ...], "pages": 3 | null, "files": ["/abs/out-1.svg", ...]?}
             (files: per-page graphic exports, svg/emf/wmf of a drawing or presentation, one per page)
             or  {"id": n, "ok": false, "code": "INVALID_PASSWORD"|"OPEN_FAILED"|"CONVERT_FAILED"|"ENGINE_CRASHED"|"NOT_STARTED", "message": "..."}

ENGINE_CRASHED: the UNO connection to soffice went away while the request was being worked on.
NOT_STARTED: the connection was already gone before the request reached soffice (safe to retry
elsewhere). After either answer the bridge exits with status 4.

Every conversion (load, font scan, export, close) runs on soffice's main thread through
com.sun.star.awt.AsyncCallback, the way `soffice --convert-to` does it, so that no user event that
loading posts (for example Writer's comment-margin layout, which needs .ui files that Debian's
*-nogui packages do not ship and aborts soffice without them) can run while the document is open.
Calls made from inside the callback are routed by the URP bridge back to that waiting main thread.

Documents are loaded hidden, read-only, with macros never executed, links not updated and an
interaction handler that answers every prompt with abort/no (it only notes password prompts, which
become INVALID_PASSWORD). PDF input is refused (CONVERT_FAILED) unless the request names a PDF import
filter; HTML is loaded into Writer (not Writer/Web, whose PDF export drops the text in 7.4); each output
format is written from the document kinds of EXPORTS only (NO_FILTER otherwise, so the caller can go
through PDF instead).
"""
import json
import os
import re
import sys
import threading
import time


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


try:
    import uno
    import unohelper
    from com.sun.star.awt import XCallback
    from com.sun.star.beans import PropertyValue
    from com.sun.star.connection import NoConnectException
    from com.sun.star.lang import DisposedException
    from com.sun.star.task import XInteractionHandler
except ImportError as exc:  # python3-uno missing, or run by a Python without it
    emit(
        {
            "ready": False,
            "code": "ENGINE_UNAVAILABLE",
            "message": "the Python UNO bridge is not importable by %s (%s); install the Debian package python3-uno"
            % (sys.executable, exc),
        }
    )
    sys.exit(2)

EXPORT_FILTERS = [
    # (document service, PDF export filter), first match wins. HTML is reloaded into Writer proper
    # before export (see _convert_on_main), so writer_web_pdf_Export is only a fallback.
    ("com.sun.star.text.WebDocument", "writer_web_pdf_Export"),
    ("com.sun.star.text.TextDocument", "writer_pdf_Export"),
    ("com.sun.star.sheet.SpreadsheetDocument", "calc_pdf_Export"),
    ("com.sun.star.presentation.PresentationDocument", "impress_pdf_Export"),
    ("com.sun.star.drawing.DrawingDocument", "draw_pdf_Export"),
]
EDIT_FILTERS = {"docx": "MS Word 2007 XML", "odt": "writer8"}

# Export filters of the editable formats, by document kind (issue 32), first matching kind wins.
EXPORTS = [
    (
        "com.sun.star.text.TextDocument",
        {
            "docx": "MS Word 2007 XML",
            "odt": "writer8",
            "doc": "MS Word 97",
            "rtf": "Rich Text Format",
            "txt": "Text (encoded)",
            "html": "HTML (StarWriter)",
        },
    ),
    (
        "com.sun.star.sheet.SpreadsheetDocument",
        {
            "xlsx": "Calc MS Excel 2007 XML",
            "xls": "MS Excel 97",
            "ods": "calc8",
            "csv": "Text - txt - csv (StarCalc)",
            "html": "HTML (StarCalc)",
        },
    ),
    (
        "com.sun.star.presentation.PresentationDocument",
        {
            "pptx": "Impress MS PowerPoint 2007 XML",
            "ppt": "MS PowerPoint 97",
            "odp": "impress8",
        },
    ),
    ("com.sun.star.drawing.DrawingDocument", {"odg": "draw8"}),
]
# Per-page graphic exports of drawings and presentations (GraphicExportFilter), by format: MediaType.
PAGE_GRAPHICS = {"svg": "image/svg+xml", "emf": "image/x-emf", "wmf": "image/x-wmf"}
IMPORT_FILTERS = ("writer_pdf_import", "draw_pdf_import", "impress_pdf_import", "Text - txt - csv (StarCalc)")
FORMATS = {"pdf"} | {f for _, table in EXPORTS for f in table} | set(PAGE_GRAPHICS)

FONT_SCAN_SECONDS = 0.5  # the font scan stops (keeping what it found) after this long ...
FONT_SCAN_ITEMS = 2000  # ... or after this many text portions / format ranges


class BridgeGone(Exception):
    """The UNO connection to soffice is gone (soffice exited or crashed)."""


class NotStarted(BridgeGone):
    """The UNO connection was gone before the request was handed to soffice."""


class Failure(Exception):
    def __init__(self, code, message):
        Exception.__init__(self, message)
        self.code = code
        self.message = message


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def is_bridge_gone(exc):
    if isinstance(exc, DisposedException):
        return True
    text = str(getattr(exc, "Message", "") or exc)
    return "URP bridge" in text or "Binary URP" in text


def uno_message(exc):
    msg = getattr(exc, "Message", None)
    return (msg if msg else str(exc)).strip() or type(exc).__name__


class InteractionHandler(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice asks while loading: never a password prompt, never a
    repair, never a filter dialog. Records whether a password was asked for (missing or wrong).

    The request object itself is not read: pyuno 7.4 under Python 3.11 fails converting the
    exception it carries (SystemError "AttributeError: args"); the continuations are enough."""

    def __init__(self):
        self.password_requested = False
        self.requests = 0

    def handle(self, request):
        try:
            self.requests += 1
            conts = request.getContinuations()
            kinds = [self._kinds(c) for c in conts]
            if any("password" in k for k in kinds):
                self.password_requested = True
            for wanted in ("abort", "disapprove"):
                for c, k in zip(conts, kinds):
                    if wanted in k:
                        c.select()
                        return
        except Exception:
            pass  # never let an exception escape into soffice's loader

    @staticmethod
    def _kinds(cont):
        found = set()
        for name, kind in (
            ("com.sun.star.task.XInteractionAbort", "abort"),
            ("com.sun.star.task.XInteractionDisapprove", "disapprove"),
            ("com.sun.star.task.XInteractionPassword", "password"),
        ):
            try:
                if cont.queryInterface(uno.getTypeByName(name)):
                    found.add(kind)
            except Exception:
                pass
        return found


class MainThreadCall(unohelper.Base, XCallback):
    """Runs fn on soffice's main thread (via AsyncCallback) and hands back its result or error."""

    def __init__(self, fn):
        self.fn = fn
        self.done = threading.Event()
        self.result = None
        self.error = None

    def notify(self, _data):
        try:
            self.result = self.fn()
        except BaseException as exc:  # delivered to the waiting thread, never raised into soffice
            self.error = exc
        finally:
            self.done.set()


def first_family(name):
    if not isinstance(name, str):
        return None
    name = name.split(";")[0].strip()
    return name or None


class FontScan:
    """Collects CharFontName values (the first family of each) within a time and item budget."""

    def __init__(self):
        self.fonts = set()
        self.items = 0
        self.deadline = time.monotonic() + FONT_SCAN_SECONDS

    def spent(self):
        return self.items >= FONT_SCAN_ITEMS or time.monotonic() > self.deadline

    def add(self, obj):
        self.items += 1
        try:
            f = first_family(obj.getPropertyValue("CharFontName"))
            if f:
                self.fonts.add(f)
        except Exception as exc:
            if is_bridge_gone(exc):
                raise

    def text(self, text):
        """Paragraph portions of an XText, descending into text tables."""
        en = text.createEnumeration()
        while en.hasMoreElements() and not self.spent():
            el = en.nextElement()
            if el.supportsService("com.sun.star.text.TextTable"):
                for cell in el.getCellNames():
                    if self.spent():
                        return
                    self.text(el.getCellByName(cell))
            elif el.supportsService("com.sun.star.text.Paragraph"):
                pe = el.createEnumeration()
                while pe.hasMoreElements() and not self.spent():
                    self.add(pe.nextElement())

    def shapes(self, shapes):
        for i in range(shapes.getCount()):
            if self.spent():
                return
            shape = shapes.getByIndex(i)
            if shape.supportsService("com.sun.star.drawing.GroupShape"):
                self.shapes(shape)
            elif shape.supportsService("com.sun.star.drawing.Text") and hasattr(shape, "createEnumeration"):
                self.text(shape)


def requested_fonts(doc):
    """Font families the document asks for, found cheaply through UNO (see FontScan budget):
    Writer (and Writer/Web for HTML): body text, tables, text frames, headers/footers of page styles in use;
    Calc: the distinct cell formats of each sheet's used area; Impress/Draw: text in shapes on
    every slide/page. Fonts only used elsewhere (charts, Calc rich-text cells, masters) are missed."""
    scan = FontScan()
    try:
        if any(
            doc.supportsService(s)
            for s in (
                "com.sun.star.text.TextDocument",
                "com.sun.star.text.WebDocument",
                "com.sun.star.text.GlobalDocument",
            )
        ):
            scan.text(doc.getText())
            frames = doc.getTextFrames()
            for name in frames.getElementNames():
                if scan.spent():
                    break
                scan.text(frames.getByName(name).getText())
            pages = doc.getStyleFamilies().getByName("PageStyles")
            for name in pages.getElementNames():
                if scan.spent():
                    break
                style = pages.getByName(name)
                if not style.isInUse():
                    continue
                for on, part in (("HeaderIsOn", "HeaderText"), ("FooterIsOn", "FooterText")):
                    if style.getPropertyValue(on):
                        scan.text(style.getPropertyValue(part))
        elif doc.supportsService("com.sun.star.sheet.SpreadsheetDocument"):
            sheets = doc.getSheets()
            for i in range(sheets.getCount()):
                if scan.spent():
                    break
                sheet = sheets.getByIndex(i)
                cursor = sheet.createCursor()
                cursor.gotoEndOfUsedArea(False)
                end = cursor.getRangeAddress()
                used = sheet.getCellRangeByPosition(0, 0, end.EndColumn, end.EndRow)
                ranges = used.getUniqueCellFormatRanges()
                for j in range(ranges.getCount()):
                    if scan.spent():
                        break
                    scan.add(ranges.getByIndex(j))
        elif doc.supportsService("com.sun.star.drawing.GenericDrawingDocument"):
            pages = doc.getDrawPages()
            for i in range(pages.getCount()):
                if scan.spent():
                    break
                scan.shapes(pages.getByIndex(i))
    except Exception as exc:
        if is_bridge_gone(exc):
            raise
        # A document model that does not answer as expected: keep what was found.
    return sorted(scan.fonts)


PDF_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def pdf_pages(path):
    """Page count of a PDF written by LibreOffice (its writer emits plain, uncompressed page
    objects, one `/Type/Page` each), or None if it cannot be read."""
    try:
        count = 0
        tail = b""
        with open(path, "rb") as fh:
            while True:
                chunk = fh.read(1 << 20)
                if not chunk:
                    break
                buf = tail + chunk
                # a match may straddle the chunk seam: count only matches starting before the
                # last 32 bytes and carry those bytes into the next round
                limit = max(len(buf) - 32, 0) if len(chunk) == (1 << 20) else len(buf)
                for m in PDF_PAGE.finditer(buf):
                    if m.start() < limit:
                        count += 1
                tail = buf[limit:]
        return count if count > 0 else None
    except OSError:
        return None


def sniff_pdf(path):
    try:
        with open(path, "rb") as fh:
            return b"%PDF-" in fh.read(1024)
    except OSError:
        return False


class Bridge:
    def __init__(self, pipe, connect_timeout):
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe
        deadline = time.monotonic() + connect_timeout
        last = None
        while True:
            try:
                self.ctx = resolver.resolve(url)
                break
            except NoConnectException as exc:
                last = exc
            except Exception as exc:  # e.g. RuntimeException while soffice is half up
                last = exc
            if time.monotonic() > deadline:
                raise Failure(
                    "ENGINE_UNAVAILABLE",
                    "soffice did not accept on pipe %s within %ss: %s" % (pipe, connect_timeout, uno_message(last)),
                )
            time.sleep(0.1)
        smgr = self.ctx.ServiceManager
        self.desktop = smgr.createInstanceWithContext("com.sun.star.frame.Desktop", self.ctx)
        self.async_call = smgr.createInstanceWithContext("com.sun.star.awt.AsyncCallback", self.ctx)
        if self.desktop is None or self.async_call is None:
            raise Failure("ENGINE_UNAVAILABLE", "soffice answered but has no Desktop/AsyncCallback service")

    def alive(self):
        """Whether soffice still answers over UNO (a crash does not always surface as DisposedException:
        a call cut off mid-way can come back as a RuntimeException "illegal object given!")."""
        try:
            self.ctx.getServiceManager()
            return True
        except Exception:
            return False

    def on_main_thread(self, fn):
        call = MainThreadCall(fn)
        try:
            self.async_call.addCallback(call, None)
        except Exception as exc:
            if is_bridge_gone(exc) or not self.alive():
                raise NotStarted(uno_message(exc))
            raise
        call.done.wait()
        if call.error is not None:
            raise call.error
        return call.result

    def convert(self, req):
        src, dst, fmt, password = req["input"], req["output"], req["format"], req.get("password")
        if not os.path.isfile(src):
            raise Failure("OPEN_FAILED", "input is not a readable file")
        import_filter = req.get("import_filter")
        if sniff_pdf(src) and import_filter is None:
            raise Failure("CONVERT_FAILED", "PDF input is only converted with a PDF import filter")
        pdf = pdf_filter_data(req) if fmt == "pdf" else []
        options = req.get("filter_options")
        import_options = req.get("import_options")
        return self.on_main_thread(
            lambda: self._convert_on_main(src, dst, fmt, password, pdf, options, import_filter, import_options)
        )

    def _load(self, src, password, filter_name=None, filter_options=None):
        """Loads src hidden, read-only, without macros or link updates; never prompts."""
        handler = InteractionHandler()
        props = [
            prop("Hidden", True),
            prop("ReadOnly", True),
            prop("MacroExecutionMode", 0),  # css.document.MacroExecMode.NEVER_EXECUTE
            prop("UpdateDocMode", 0),  # css.document.UpdateDocMode.NO_UPDATE
            prop("InteractionHandler", handler),
        ]
        if password is not None:
            props.append(prop("Password", password))
        if filter_name is not None:
            props.append(prop("FilterName", filter_name))
        if filter_options is not None:
            # the CSV import asks for its options in a dialog (which the handler aborts) unless they are given
            props.append(prop("FilterOptions", filter_options))
        doc = None
        try:
            doc = self.desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0, tuple(props))
        except Exception as exc:
            if is_bridge_gone(exc):
                raise BridgeGone(uno_message(exc))
            if not handler.password_requested:
                raise Failure("OPEN_FAILED", "LibreOffice could not load the document: %s" % uno_message(exc))
        if doc is None:
            if handler.password_requested:
                raise Failure(
                    "INVALID_PASSWORD",
                    "the document is encrypted and the password is %s"
                    % ("wrong" if password is not None else "missing"),
                )
            raise Failure("OPEN_FAILED", "LibreOffice could not load the document (unknown format or damaged file)")
        return doc

    def _convert_on_main(self, src, dst, fmt, password, pdf, options=None, import_filter=None, import_options=None):
        try:
            return self._convert_loaded(src, dst, fmt, password, pdf, options, import_filter, import_options)
        except Failure as failure:
            if not self.alive():
                raise BridgeGone("%s (soffice no longer answers)" % failure.message)
            raise

    def _convert_loaded(self, src, dst, fmt, password, pdf, options=None, import_filter=None, import_options=None):
        doc = None
        try:
            doc = self._load(src, password, import_filter, import_options)
            if import_filter is None and doc.supportsService("com.sun.star.text.WebDocument"):
                # HTML opens in Writer/Web, whose PDF export (writer_web_pdf_Export) drops the text in
                # LibreOffice 7.4; load it into Writer proper instead (same import, print layout).
                close_quietly(doc)
                doc = None
                doc = self._load(src, password, "HTML (StarWriter)")

            if fmt in PAGE_GRAPHICS:
                if not doc.supportsService("com.sun.star.drawing.GenericDrawingDocument"):
                    raise Failure("NO_FILTER", "%s pages are only exported from drawings and presentations" % fmt)
                files = self._export_pages(doc, dst, PAGE_GRAPHICS[fmt])
                return {"fonts": requested_fonts(doc), "pages": len(files), "files": files}
            if fmt == "pdf":
                filt = next((f for svc, f in EXPORT_FILTERS if doc.supportsService(svc)), None)
                if filt is None:
                    raise Failure("CONVERT_FAILED", "no PDF export for this kind of document")
            else:
                filt = None
                if not doc.supportsService("com.sun.star.text.WebDocument"):
                    filt = next((t.get(fmt) for svc, t in EXPORTS if doc.supportsService(svc)), None)
                if filt is None:
                    raise Failure("NO_FILTER", "LibreOffice does not write %s from this kind of document" % fmt)

            fonts = requested_fonts(doc)
            try:
                store = [prop("FilterName", filt), prop("Overwrite", True)]
                if pdf:
                    store.append(prop("FilterData", uno.Any("[]com.sun.star.beans.PropertyValue", tuple(pdf))))
                if options:
                    store.append(prop("FilterOptions", options))
                doc.storeToURL(uno.systemPathToFileUrl(dst), tuple(store))
            except Exception as exc:
                if is_bridge_gone(exc):
                    raise BridgeGone(uno_message(exc))
                raise Failure("CONVERT_FAILED", "export with %s failed: %s" % (filt, uno_message(exc)))

            if fmt == "pdf":
                pages = pdf_pages(dst)
            else:
                try:
                    pages = int(doc.getCurrentController().getPropertyValue("PageCount"))
                except Exception as exc:
                    if is_bridge_gone(exc):
                        raise BridgeGone(uno_message(exc))
                    pages = None
            return {"fonts": fonts, "pages": pages}
        finally:
            if doc is not None:
                close_quietly(doc)

    def _export_pages(self, doc, dst, media_type):
        """Each page of a drawing or presentation as its own graphic file (<dst stem>-<n>.<ext>), through
        GraphicExportFilter. Returns the paths written, in page order."""
        stem, ext = os.path.splitext(dst)
        exporter = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.drawing.GraphicExportFilter", self.ctx
        )
        pages = doc.getDrawPages()
        out = []
        for i in range(pages.getCount()):
            path = "%s-%d%s" % (stem, i + 1, ext)
            try:
                exporter.setSourceDocument(pages.getByIndex(i))
                exporter.filter((prop("URL", uno.systemPathToFileUrl(path)), prop("MediaType", media_type)))
            except Exception as exc:
                if is_bridge_gone(exc):
                    raise BridgeGone(uno_message(exc))
                raise Failure(
                    "CONVERT_FAILED", "page %d export as %s failed: %s" % (i + 1, media_type, uno_message(exc))
                )
            if not os.path.isfile(path):
                raise Failure("CONVERT_FAILED", "page %d export as %s wrote nothing" % (i + 1, media_type))
            out.append(path)
        return out


def pdf_filter_data(req):
    """The PDF export filter's options of a request (issue 31): `pages` as PageRange ("1-2", "1,3,5-"),
    `pdfa` (1, 2 or 3) as SelectPdfVersion, LibreOffice's own PDF/A-1b/2b/3b export (fonts embedded, XMP
    pdfaid written); issue 32: `bookmarks`, `markup`, `hidden_slides`, `notes_pages` (booleans) as ExportBookmarks,
    ExportNotes, ExportHiddenSlides, ExportNotesPages + ExportOnlyNotesPages."""
    data = []
    if req.get("pages"):
        data.append(prop("PageRange", req["pages"]))
    if req.get("pdfa"):
        data.append(prop("SelectPdfVersion", int(req["pdfa"])))
    # issue 32: CloudConvert's bookmarks, include_markup, hidden_slides, output_type "notes"
    if isinstance(req.get("bookmarks"), bool):
        data.append(prop("ExportBookmarks", req["bookmarks"]))
    if isinstance(req.get("markup"), bool):
        data.append(prop("ExportNotes", req["markup"]))
    if isinstance(req.get("hidden_slides"), bool):
        data.append(prop("ExportHiddenSlides", req["hidden_slides"]))
    if req.get("notes_pages") is True:
        data.append(prop("ExportNotesPages", True))
        data.append(prop("ExportOnlyNotesPages", True))
    return data


def close_quietly(doc):
    """Closes a loaded document (disposing it if a listener vetoes the close)."""
    try:
        doc.close(True)
    except Exception as exc:
        if is_bridge_gone(exc):
            raise BridgeGone(uno_message(exc))
        try:
            doc.dispose()
        except Exception:
            pass


def valid_request(req):
    if not isinstance(req, dict) or not isinstance(req.get("id"), int):
        return "request needs an integer id"
    for key in ("input", "output"):
        if not isinstance(req.get(key), str) or not os.path.isabs(req[key]):
            return "%s must be an absolute path" % key
    if req.get("format") not in FORMATS:
        return "format must be one of %s" % ", ".join(sorted(FORMATS))
    if req.get("filter_options") is not None and (
        not isinstance(req["filter_options"], str) or not re.match(r"^[A-Za-z0-9_,.\-]{0,200}$", req["filter_options"])
    ):
        return "filter_options must be LibreOffice filter tokens (letters, digits, _ , . -)"
    if req.get("import_filter") is not None and req["import_filter"] not in IMPORT_FILTERS:
        return "import_filter must be one of %s" % ", ".join(IMPORT_FILTERS)
    if req.get("import_options") is not None and (
        not isinstance(req["import_options"], str) or not re.match(r"^[0-9,/a-z\-]{0,200}$", req["import_options"])
    ):
        return "import_options must be LibreOffice filter tokens (digits, letters, , / -)"
    if "password" in req and req["password"] is not None and not isinstance(req["password"], str):
        return "password must be a string"
    if req.get("pages") is not None and (
        not isinstance(req["pages"], str) or not re.match(r"^[0-9, -]{1,1000}$", req["pages"])
    ):
        return "pages must be page numbers and ranges such as 1-2,5"
    if req.get("pdfa") is not None and req["pdfa"] not in (1, 2, 3):
        return "pdfa must be 1, 2 or 3"
    return None


def main():
    if len(sys.argv) < 2:
        emit({"ready": False, "code": "ENGINE_UNAVAILABLE", "message": "usage: uno_bridge.py <pipe-name> [timeout]"})
        return 2
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
    try:
        bridge = Bridge(sys.argv[1], timeout)
    except Failure as f:
        emit({"ready": False, "code": f.code, "message": f.message})
        return 3
    except Exception as exc:
        emit({"ready": False, "code": "ENGINE_UNAVAILABLE", "message": "UNO connection failed: %s" % uno_message(exc)})
        return 3
    emit({"ready": True})

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            emit({"id": None, "ok": False, "code": "CONVERT_FAILED", "message": "request is not JSON"})
            continue
        problem = valid_request(req)
        rid = req.get("id") if isinstance(req, dict) else None
        if problem:
            emit({"id": rid, "ok": False, "code": "CONVERT_FAILED", "message": problem})
            continue
        try:
            out = bridge.convert(req)
            emit(
                {
                    "id": rid,
                    "ok": True,
                    "fonts": out["fonts"],
                    "pages": out["pages"],
                    **({"files": out["files"]} if out.get("files") else {}),
                }
            )
        except Failure as f:
            emit({"id": rid, "ok": False, "code": f.code, "message": f.message})
        except NotStarted as gone:
            emit({"id": rid, "ok": False, "code": "NOT_STARTED", "message": "soffice was already gone: %s" % gone})
            return 4
        except BridgeGone as gone:
            emit({"id": rid, "ok": False, "code": "ENGINE_CRASHED", "message": "soffice went away: %s" % gone})
            return 4
        except Exception as exc:
            if is_bridge_gone(exc) or not bridge.alive():
                emit(
                    {
                        "id": rid,
                        "ok": False,
                        "code": "ENGINE_CRASHED",
                        "message": "soffice went away: %s" % uno_message(exc),
                    }
                )
                return 4
            emit(
                {
                    "id": rid,
                    "ok": False,
                    "code": "CONVERT_FAILED",
                    "message": "%s: %s" % (type(exc).__name__, uno_message(exc)),
                }
            )
    # stdin closed: the pool closed it, or the engine's process died (SIGKILL leaves no one to stop soffice, which runs in
    # its own process group) -- so soffice is told to quit here rather than left running as an orphan.
    try:
        bridge.desktop.terminate()
    except Exception:
        pass  # already gone, or the bridge to it is: nothing left to stop
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    # os._exit: do not wait for pyuno's bridge threads on the way out
    os._exit(code)
