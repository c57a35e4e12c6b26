"""Bytes to text for uploaded files (event files, take-on files), whatever the software wrote."""

import codecs
import re

# Tried in order; Latin-1 decodes any byte, so it always ends the search. CP1252 comes first
# because Windows software writes it far more often and it only differs in 0x80-0x9F.
_FALLBACKS = ("utf-8", "cp1252", "latin-1")
# The bytes UTF-8 writes for one accented letter. A file that has them and still is not UTF-8
# was saved in two encodings (a UTF-8 name pasted into a Windows file): read either way, some of
# its names would come out garbled.
_UTF8_LETTER = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


class MixedEncoding(ValueError):
    def __init__(self, line):
        self.line = line
        super().__init__(
            "is not UTF-8 though other lines of the file are: it mixes two encodings, which would "
            "garble names; save the file again as UTF-8"
        )


def decode(data: bytes) -> tuple[str, str]:
    """(text, encoding name): byte-order marks and a final end-of-file mark (Ctrl-Z, which DOS
    programs wrote) removed, line ends normalised to "\\n". MixedEncoding, naming the first line
    that is not UTF-8, for a file that is partly UTF-8 and partly something else."""
    # A UTF-16 byte-order mark first, as Windows writes; a file that only looks like one (an odd
    # number of bytes, a broken pair) falls to the other encodings like any other.
    encodings = ("utf-16", *_FALLBACKS) if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else _FALLBACKS
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    for encoding in encodings:
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError as error:
            if encoding == "utf-8" and _UTF8_LETTER.search(data):
                raise MixedEncoding(data[: error.start].count(b"\n") + 1) from None
            continue
    text = text.lstrip("\ufeff").removesuffix("\x1a")
    return text.replace("\r\n", "\n").replace("\r", "\n"), encoding
