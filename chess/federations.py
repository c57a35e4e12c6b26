"""FIDE's federations, by the three-letter codes FIDE gives them (and TRF files write), and FIDE IDs."""

from chess.numbers import whole_number_within

# FIDE IDs have 6 to 9 digits: a shorter number is another body's (an ICU file writes its own
# member numbers in the FIDE-ID column), and stored as a FIDE ID it would match the wrong person.
SMALLEST_FIDE_ID = 100_000
LARGEST_FIDE_ID = 999_999_999
FIDE_ID_DIGITS = "6 to 9 digits"

# FIDE's member federations, with FID (players under FIDE's own flag) and the codes of
# federations since gone that older files still write (AHO, SCG, YUG). A code missing here
# makes a real federation read as a club, so the list errs on the side of more codes.
FIDE_FEDERATIONS = frozenset(
    """
    AFG AHO ALB ALG AND ANG ANT ARG ARM ARU AUS AUT AZE BAH BAN BAR BDI BEL BEN BER BHU BIH BIZ
    BLR BOL BOT BRA BRN BRU BUL BUR CAF CAM CAN CAY CGO CHA CHI CHN CIV CMR COD COL COM CPV CRC
    CRO CUB CYP CZE DEN DJI DMA DOM ECU EGY ENG ERI ESA ESP EST ETH FAI FID FIJ FIN FRA GAB GAM
    GCI GEO GEQ GER GHA GRE GRN GUA GUM GUY HAI HKG HON HUN INA IND IOM IRI IRL IRQ ISL ISR ISV
    ITA IVB JAM JCI JOR JPN KAZ KEN KGZ KOR KOS KSA KUW LAO LAT LBA LBN LBR LCA LES LIE LTU LUX
    MAC MAD MAR MAS MAW MDA MDV MEX MGL MKD MLI MLT MNC MNE MOZ MRI MTN MYA NAM NCA NED NEP NGR
    NIG NOR NRU NZL OMA PAK PAN PAR PER PHI PLE PLW PNG POL POR PRK PUR QAT ROU RSA RUS RWA SCG
    SCO SEN SEY SGP SKN SLE SLO SMR SOL SOM SRB SRI SSD STP SUD SUI SUR SVK SWE SWZ SYR TGA THA
    TJK TKM TLS TOG TPE TTO TUN TUR UAE UGA UKR URU USA UZB VAN VEN VIE VIN WLS YEM YUG ZAM ZIM
    """.split()
)


def is_fide_federation(text: str) -> bool:
    """Whether ``text`` (spaces and case aside) is a FIDE federation's code."""
    return text.strip().upper() in FIDE_FEDERATIONS


def fide_id(text: str) -> int | None:
    """The FIDE ID ``text`` writes, or None when it cannot be one (the parsers say so)."""
    return whole_number_within(text, SMALLEST_FIDE_ID, LARGEST_FIDE_ID)
