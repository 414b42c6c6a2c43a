"""ebook-convert to PDF with calibre's page renderer made to wait less, run as
`calibre-debug -e pdf_render.py IN OUT.pdf [OPTIONS]`.

calibre's PDF output (calibre/ebooks/pdf/html_writer.py, 6.13) loads each HTML file of the book in a QtWebEngine page
and, once the page has loaded, waits a fixed "settle time" of one second before printing it, on as many pages at once
as the machine has CPUs. A book's chapters are its HTML files: a 377-page EPUB of 38 chapters took 25 s of wall time
for 2 s of CPU on 2 CPUs (issue 48's capacity bench), and the container instance's memory is billed for all of it.

The wait is for the book's scripts and late layout. The engine strips every script from the book before this step
(calibre.ts STRIP_SCRIPTS; calibre's own pagination script still runs), and a book's files are local, so a page is laid
out when its load ends. Here the settle time is SETTLE_S (0.2 s) and the renderer uses RENDER_PAGES (4) pages at once:
the engine's whole call on that book took 8.6 s beside 35.4 s for the same two steps by the stock CLI on a busy
machine, and its text, page count and page images are calibre's own (test/native/calibre-pdf-render.test.ts). Books
with maths keep calibre's doubled wait for MathJax, from the shorter base. Each page at once is a QtWebEngine page of
~180 MB: 4 of them keep a conversion near 1.1 GB.
"""
import sys

from calibre.ebooks.pdf import html_writer

SETTLE_S = 0.2
RENDER_PAGES = 4

_init = html_writer.RenderManager.__init__
_convert = html_writer.RenderManager.convert_html_files


def __init__(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    self.max_workers = max(self.max_workers, RENDER_PAGES)


def convert_html_files(self, jobs, settle_time=0, wait_for_title=None, has_maths=None):
    return _convert(
        self, jobs, settle_time=min(settle_time, SETTLE_S), wait_for_title=wait_for_title, has_maths=has_maths
    )


html_writer.RenderManager.__init__ = __init__
html_writer.RenderManager.convert_html_files = convert_html_files

from calibre.ebooks.conversion.cli import main  # noqa: E402

sys.exit(main(["ebook-convert"] + sys.argv[1:]))
