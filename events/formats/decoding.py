"""Bytes to text for uploaded event files, whatever the arbiter's software wrote."""

import codecs

# Tried in order; Latin-1 decodes any byte, so it always ends the search. CP1252 comes first
# because Windows software writes it far more often and it only differs in 0x80-0x9F.
_FALLBACKS = ("utf-8", "cp1252", "latin-1")


def decode(data: bytes) -> tuple[str, str]:
    """(text, encoding name): byte-order marks removed, line ends normalised to "\\n"."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = data.decode("utf-16"), "utf-16"
    else:
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8):]
        for encoding in _FALLBACKS:
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
    text = text.lstrip("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n"), encoding
