"""Bytes to text for uploaded event files, whatever the arbiter's software wrote."""

import codecs

# Tried in order; Latin-1 decodes any byte, so it always ends the search. CP1252 comes first
# because Windows software writes it far more often and it only differs in 0x80-0x9F.
_FALLBACKS = ("utf-8", "cp1252", "latin-1")


def decode(data: bytes) -> tuple[str, str]:
    """(text, encoding name): byte-order marks and a final end-of-file mark (Ctrl-Z, which DOS
    programs wrote) removed, line ends normalised to "\\n"."""
    # A UTF-16 byte-order mark first, as Windows writes; a file that only looks like one (an odd
    # number of bytes, a broken pair) falls to the other encodings like any other.
    encodings = ("utf-16", *_FALLBACKS) if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else _FALLBACKS
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    for encoding in encodings:
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    text = text.lstrip("\ufeff").removesuffix("\x1a")
    return text.replace("\r\n", "\n").replace("\r", "\n"), encoding
