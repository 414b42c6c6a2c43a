"""ebook-convert for CHM input on calibre 6.13 (Debian 12), run as `calibre-debug -e chm_convert.py IN OUT [OPTIONS]`.

calibre 6.13's CHM input builds its book with an HTMLInput whose `root_dir_of_input` is never set, so every CHM
fails with "AttributeError: 'HTMLInput' object has no attribute 'root_dir_of_input'" (issue 44's fixture sweep,
tika's testChm.chm). HTMLInput.convert sets it to the input's folder; here the CHM input does the same with the
folder the CHM was unpacked to, so links outside it are still refused (calibre's own guard, unchanged). Then
ebook-convert's main runs with the arguments given.
"""
import os
import sys

from calibre.ebooks.conversion.plugins import chm_input


def _create_oebbook_html(self, htmlpath, basedir, opts, log, mi):
    from calibre.customize.builtins import HTMLInput

    opts.breadth_first = True
    htmlinput = HTMLInput(None)
    htmlinput.root_dir_of_input = os.path.abspath(basedir) + os.sep
    return htmlinput.create_oebbook(htmlpath, basedir, opts, log, mi)


chm_input.CHMInput._create_oebbook_html = _create_oebbook_html

from calibre.ebooks.conversion.cli import main  # noqa: E402

sys.exit(main(["ebook-convert"] + sys.argv[1:]))
