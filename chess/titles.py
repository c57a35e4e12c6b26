"""FIDE titles as the federation records them."""

FIDE_TITLES = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"]
CHOICES = [(title, title) for title in FIDE_TITLES]

# TRF writes titles in lower case and short (g, m, f, c, wg, wm, wf, wc).
_ALIASES = {
    "G": "GM",
    "M": "IM",
    "F": "FM",
    "C": "CM",
    "WG": "WGM",
    "WM": "WIM",
    "WF": "WFM",
    "WC": "WCM",
}


def normalise_title(text: str) -> str | None:
    """The FIDE title written in ``text``, "" for none, or None if it is not one we know."""
    title = (text or "").strip().upper()
    if not title:
        return ""
    title = _ALIASES.get(title, title)
    return title if title in FIDE_TITLES else None
