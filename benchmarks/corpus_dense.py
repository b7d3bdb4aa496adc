"""The second benchmark corpus: link-dense multilingual chat, generated and deterministic (issue 20).

    from corpus_dense import dense_corpus
    lines, description = dense_corpus(150_000)      # ~150,000 characters, seed 58

Chat-like paragraphs (a few ``name: message`` lines each, blank lines between paragraphs)
in 21 languages and 18 scripts (Latin with its accents and Vietnamese, Greek, Cyrillic, Arabic, Hebrew,
Devanagari, Bengali, Tamil, Sinhala, Thai, Khmer, Myanmar, Han, Hiragana and Katakana,
Hangul, Georgian, Armenian, Ethiopic), with one link between every 15 to 90 characters of
text (so at least one link per 120 characters over the corpus):

- hosts drawn from a Zipf mix (s = 1.07) of 3,000 hosts, a quarter of them IDNs (labels
  in the scripts above, under their own TLDs: ``рф``, ``中国``, ``ไทย``, ``de``…);
- URLs with ``https://``/``http://`` (40%), schemeless (30%: ``www.``, ``host/path``),
  Wikipedia-style URLs with long non-ASCII titles (14%, some percent-encoded), and emails
  (16%: three quarters of them with a non-ASCII local part, 12% of all links);
- links inside brackets and quotes (``()``, ``[]``, ``<>``, ``"…"``, ``«…»``, ``“…”``,
  ``「…」``, ``（…）``), before sentence punctuation and, in Chinese and Japanese, written
  against CJK text and punctuation with no space (``参照https://…。``, ``「…」``, ``…、``).

Same ``seed``, ``size`` and mix, same text (``random.Random(seed)`` only; no hash order, no
clock): a smaller corpus is a prefix of a larger one of the same seed and mix.

The family (issue 36.2): a :class:`Mix` sets the share of links with an explicit scheme,
of Wikipedia links among them, of IDN hosts, of emails, of links against closers and
brackets, the script mix and the links per 100 characters; ``Mix()`` is the corpus above,
text for text.  :data:`POINTS` names the points ``bench.py --check`` measures::

    lines, description = dense_corpus(60_000, seed=101, mix=POINTS["email-heavy"])
"""

from __future__ import annotations

import bisect
import itertools
import random
import unicodedata
import urllib.parse
from dataclasses import dataclass

__all__ = [
    "DEFAULT_SEED",
    "HOSTS",
    "POINTS",
    "SCRIPTS",
    "SCRIPT_MIXES",
    "Mix",
    "Script",
    "dense_corpus",
    "dense_lines",
    "dense_text",
]

DEFAULT_SEED = 58
HOSTS = 3000  # hosts in the Zipf mix
IDN_SHARE = 0.25
ZIPF_S = 1.07


@dataclass(frozen=True)
class Script:
    """How text of one script is written: letters, optional combining signs, separators, TLDs."""

    name: str
    letters: str
    signs: str = ""  # combining vowel signs / tone marks, written after a letter
    space: str = " "  # between words ("" for scripts written without spaces)
    stop: str = "."
    comma: str = ","
    tlds: tuple[str, ...] = ("com",)  # TLDs of this script's IDN hosts
    wiki: str = "en"  # Wikipedia language code
    cjk: bool = False  # links written against the text, CJK brackets and punctuation


def _span(first: str, last: str) -> str:
    """The letters from ``first`` to ``last`` (unassigned code points left out: they are Hard)."""
    return "".join(chr(c) for c in range(ord(first), ord(last) + 1) if unicodedata.category(chr(c))[0] == "L")


SCRIPTS: tuple[Script, ...] = (
    Script("English", _span("a", "z"), tlds=("com", "org", "net", "io"), wiki="en"),
    Script("German", _span("a", "z") + "äöüß", tlds=("de", "at", "ch"), wiki="de"),
    Script("French", _span("a", "z") + "éèêàçôù", tlds=("fr", "be"), wiki="fr"),
    Script("Vietnamese", _span("a", "z") + "ăâđêôơưạảấầẩếềểộờởợứừửự", tlds=("vn",), wiki="vi"),
    Script("Greek", _span("α", "ω").replace("ς", ""), tlds=("gr", "ελ"), wiki="el"),
    Script("Cyrillic", _span("а", "я"), tlds=("рф", "укр", "бг", "москва", "онлайн"), wiki="ru"),
    Script("Arabic", _span("ا", "ي").replace("ـ", ""), comma="،", tlds=("مصر", "عرب", "شبكة"), wiki="ar"),
    Script("Hebrew", _span("א", "ת"), tlds=("ישראל", "il"), wiki="he"),
    Script("Devanagari", _span("क", "ह"), "ािीुूेैोौ", stop="।", tlds=("भारत", "संगठन"), wiki="hi"),
    Script("Bengali", "কখগঘচছজঝটঠডঢণতথদধনপফবভমযরলশষসহ", "াি ীুূেো".replace(" ", ""), stop="।", tlds=("ভারত",), wiki="bn"),
    Script("Tamil", "கஙசஞடணதநபமயரலவழளறன", "ாிீுூெேை", tlds=("இந்தியா", "இலங்கை"), wiki="ta"),
    Script("Sinhala", "කඛගඝචඡජටඩණතථදධනපබභමයරලවසහ", "ාැිීුූෙ", tlds=("lk",), wiki="si"),
    Script("Thai", _span("ก", "ฮ").replace("ฤ", "").replace("ฦ", ""), "ัิีึืุู่้", "", tlds=("ไทย",), wiki="th"),
    Script("Khmer", _span("ក", "អ"), "ាិីឹឺុូ", "", stop="។", tlds=("kh",), wiki="km"),
    Script("Myanmar", _span("က", "အ"), "ါာိီုူေ", "", stop="။", tlds=("mm",), wiki="my"),
    Script(
        "Han",
        "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长",
        "",
        "",
        "。",
        "，",
        ("中国", "公司", "网络", "香港", "台灣", "在线"),
        "zh",
        True,
    ),
    Script(
        "Japanese",
        _span("あ", "ん") + _span("ア", "ン") + "日本語東京大学新聞社会情報駅前時間今週末",
        "",
        "",
        "。",
        "、",
        ("jp", "みんな", "コム"),
        "ja",
        True,
    ),
    Script("Hangul", "", tlds=("한국", "닷컴", "kr"), wiki="ko"),  # letters: syllables, see _word
    Script("Georgian", _span("ა", "ჰ"), tlds=("გე",), wiki="ka"),
    Script("Armenian", _span("ա", "ֆ"), stop="։", tlds=("հայ",), wiki="hy"),
    Script("Ethiopic", _span("ሀ", "ፐ"), stop="።", comma="፣", tlds=("et",), wiki="am"),
)

_ASCII_TLDS = ("com", "org", "net", "io", "de", "fr", "jp", "ru", "info", "dev", "app", "co", "edu", "gov", "uk")
_SUBDOMAINS = ("www.", "docs.", "blog.", "m.", "api.", "shop.", "news.", "", "", "", "", "")
_SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"] + ["str", "ing", "ex", "ol", "an", "ux"]
_NAMES = ("ana", "li", "tomás", "ivan", "sara", "kenji", "ming", "noor", "dara", "olga", "yuki", "amir", "zoe")
_OPEN_CLOSE = (("(", ")"), ("[", "]"), ("<", ">"), ('"', '"'), ("«", "»"), ("“", "”"), ("'", "'"))
_CJK_OPEN_CLOSE = (("「", "」"), ("（", "）"), ("『", "』"), ("【", "】"))


#: Named script mixes: weights by script name (a script not named weighs nothing); "all" is
#: every script alike, as the default corpus draws them.
SCRIPT_MIXES: dict[str, dict[str, float]] = {
    "all": {},
    "cjk-arabic": {"Han": 3, "Japanese": 3, "Hangul": 2, "Arabic": 3, "Hebrew": 1, "English": 0.5},
    "latin": {"English": 4, "German": 2, "French": 2, "Vietnamese": 1},
    "indic-sea": {"Devanagari": 2, "Bengali": 2, "Tamil": 2, "Sinhala": 1, "Thai": 2, "Khmer": 1, "Myanmar": 1},
}


@dataclass(frozen=True)
class Mix:
    """One point of the family of dense corpora (issue 36.2).  ``Mix()`` is the default corpus.

    ``schemes``: share of links written with ``https://`` or ``http://`` (Wikipedia links
    included); ``wiki``: share of links that are Wikipedia URLs with long titles in the
    paragraph's script (part of ``schemes``); ``idn``: share of the 3,000 hosts that are IDNs;
    ``emails``: share of links that are emails (three quarters with a non-ASCII local part);
    ``closers``: share of links written before punctuation, inside brackets or quotes, or
    against CJK text and punctuation; ``scripts``: a key of :data:`SCRIPT_MIXES`;
    ``per_100``: links per 100 characters (``None``: the default corpus's text between
    links, about 0.9); the text between links is scaled to it, down to none (links side by
    side, a space or a bracket between them); the links keep their length, and the
    corpus's description gives the figure reached.
    """

    schemes: float = 0.54
    wiki: float = 0.14
    idn: float = 0.25
    emails: float = 0.16
    closers: float = 0.60
    scripts: str = "all"
    per_100: float | None = None

    def describe(self) -> str:
        density = "" if self.per_100 is None else f", {self.per_100:g} links/100 chars asked"
        return (
            f"{self.schemes:.0%} schemes ({self.wiki:.0%} Wikipedia), {self.idn:.0%} IDN hosts, "
            f"{self.emails:.0%} emails, {self.closers:.0%} against closers, scripts {self.scripts}{density}"
        )


#: The points of the family that ``bench.py --check`` measures (each on its own seed).
POINTS: dict[str, Mix] = {
    "default": Mix(),
    # the corpus of issue 36: about 60% https, a quarter IDNs, CJK closers, 12% emails
    "scheme-idn": Mix(schemes=0.62, wiki=0.10, idn=0.40, emails=0.12, closers=0.75, scripts="cjk-arabic"),
    "email-heavy": Mix(schemes=0.30, wiki=0.05, emails=0.45),
    "very-dense": Mix(schemes=0.35, wiki=0.0, emails=0.20, per_100=3.0),
    "cjk-arabic": Mix(scripts="cjk-arabic", closers=0.80, idn=0.50),
    "sparse": Mix(per_100=0.25, scripts="latin", idn=0.10),
}


def _t(x: float) -> float:
    """A threshold, rounded so that the default mix gives the default corpus's thresholds exactly."""
    return round(x, 9)


def _word(rng: random.Random, script: Script, lo: int = 2, hi: int = 8) -> str:
    n = rng.randint(lo, hi)
    if not script.letters:  # Hangul: precomposed syllables
        return "".join(chr(rng.randint(0xAC00, 0xD7A3)) for _ in range(max(1, n // 2)))
    out = []
    for _ in range(n):
        out.append(rng.choice(script.letters))
        if script.signs and rng.random() < 0.45:
            out.append(rng.choice(script.signs))
    return "".join(out)


def _ascii_word(rng: random.Random, lo: int = 1, hi: int = 3) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(lo, hi)))


def _hosts(
    rng: random.Random, idn: float = IDN_SHARE, weights: list[float] | None = None
) -> list[tuple[str, Script | None]]:
    """HOSTS distinct hosts (``idn`` of them IDNs), in Zipf rank order, with their script
    (drawn alike, or by ``weights``, one per script after English)."""
    hosts: list[tuple[str, Script | None]] = []
    seen: set[str] = set()
    while len(hosts) < HOSTS:
        if rng.random() < idn:
            script: Script | None = (
                rng.choice(SCRIPTS[1:]) if weights is None else rng.choices(SCRIPTS[1:], weights)[0]
            )  # English has no IDN of its own
            assert script is not None
            label = _word(rng, script, 3, 7)
            if script.letters and script.letters[0] == "a":  # Latin: make it non-ASCII
                label = label[:2] + rng.choice(script.letters[26:]) + label[2:]
            host = label + "." + rng.choice(script.tlds)
        else:
            script = None
            host = rng.choice(_SUBDOMAINS) + _ascii_word(rng, 2, 4) + "." + rng.choice(_ASCII_TLDS)
        if host not in seen:
            seen.add(host)
            hosts.append((host, script))
    return hosts


class _Generator:
    def __init__(self, seed: int, mix: Mix | None = None, scale: float = 1.0) -> None:
        mix = mix or Mix()
        self.rng = random.Random(seed)
        named = SCRIPT_MIXES[mix.scripts]
        self.weights = [named.get(s.name, 0.0) for s in SCRIPTS] if named else None
        idn_weights = self.weights[1:] if self.weights and any(self.weights[1:]) else None
        self.hosts = _hosts(self.rng, mix.idn, idn_weights)
        # link kinds: non-ASCII emails, ASCII emails, Wikipedia, scheme URLs, then schemeless
        self.kinds = (
            _t(mix.emails * 0.75),
            _t(mix.emails),
            _t(mix.emails + mix.wiki),
            _t(mix.emails + mix.schemes),
        )
        # placement: plain (spaces), before punctuation, in brackets or quotes, Markdown-style
        c = mix.closers
        self.places = (_t(1 - c), _t(1 - c + c / 3), _t(1 - c + c * 5 / 6))
        # CJK: against the text (brackets, punctuation), then spaced
        self.cjk = (_t(c * 0.55 / 0.60), _t(c * 0.25 / 0.60), _t(c * 0.45 / 0.60))
        self.scale = scale  # the text between links (see Mix.per_100)
        self.cum = list(itertools.accumulate(1 / (k**ZIPF_S) for k in range(1, HOSTS + 1)))
        self.links = 0

    def host(self) -> tuple[str, Script | None]:
        k = bisect.bisect_left(self.cum, self.rng.random() * self.cum[-1])
        return self.hosts[min(k, HOSTS - 1)]

    def path(self, script: Script | None) -> str:
        rng = self.rng
        parts = []
        for _ in range(rng.randint(0, 3)):
            parts.append(_word(rng, script, 2, 6) if script and rng.random() < 0.7 else _ascii_word(rng))
        path = "/" + "/".join(parts) if parts else ("/" if rng.random() < 0.3 else "")
        if path and rng.random() < 0.15:
            path += ".html"
        if rng.random() < 0.2:
            key = _ascii_word(rng, 1, 2)
            value = _word(rng, script, 2, 5) if script and rng.random() < 0.5 else str(rng.randint(1, 9999))
            path += f"?{key}={value}" + (f"&lang={script.wiki if script else 'en'}" if rng.random() < 0.5 else "")
        if rng.random() < 0.1:
            path += "#" + (_word(rng, script, 2, 6) if script else _ascii_word(rng))
        return path

    def link(self, script: Script) -> str:
        """One link: a URL, a Wikipedia URL or an email."""
        rng = self.rng
        self.links += 1
        kind = rng.random()
        k_local, k_email, k_wiki, k_scheme = self.kinds
        if kind < k_local:  # email, non-ASCII local part
            local = _word(rng, script if script.name != "English" else rng.choice(SCRIPTS[1:]), 2, 6)
            if rng.random() < 0.3:
                local += "." + _word(rng, script, 2, 5)
            return local + "@" + self.host()[0]
        if kind < k_email:  # email, ASCII local part
            return (
                rng.choice(_NAMES).replace("á", "a")
                + rng.choice((".", "_", "+", ""))
                + _ascii_word(rng)
                + "@"
                + self.host()[0]
            )
        if kind < k_wiki:  # Wikipedia, a long title in the paragraph's script
            words = [_word(rng, script, 3, 9) for _ in range(rng.randint(2, 5))]
            title = "_".join(words)
            if rng.random() < 0.3:
                title += "_(" + _word(rng, script, 3, 8) + ")"
            if rng.random() < 0.15:
                title = urllib.parse.quote(title, safe="_()")
            return f"https://{script.wiki}.wikipedia.org/wiki/{title}"
        host, host_script = self.host()
        path = self.path(host_script or (script if rng.random() < 0.3 else None))
        if kind < k_scheme:
            return rng.choice(("https://", "https://", "https://", "http://")) + host + path
        if host.count(".") == 1 and rng.random() < 0.3:
            host = "www." + host
        return host + (path or "/" + _ascii_word(rng))

    def placed(self, script: Script) -> str:
        """A link in its context: the text around it ends or starts with a space unless CJK."""
        rng = self.rng
        link = self.link(script)
        r = rng.random()
        against, bracketed, punctuated = self.cjk
        if script.cjk and r < against:  # written against the CJK text and punctuation
            if r < bracketed:
                o, c = rng.choice(_CJK_OPEN_CLOSE)
                return o + link + c
            return link + rng.choice(("。", "、", "", " ")) if r < punctuated else " " + link + rng.choice(("。", "、"))
        plain, before, inside = self.places
        if r < plain:
            return " " + link + " "
        if r < before:
            return " " + link + rng.choice((".", ",", "!", "?", ":", ";", script.stop, script.comma)) + " "
        if r < inside:
            o, c = rng.choice(_OPEN_CLOSE)
            return " " + o + link + c + rng.choice(("", "", ".", ",")) + " "
        return " [" + _word(rng, script, 2, 6) + "](" + link + ") "  # Markdown-style

    def text(self, script: Script, length: int) -> str:
        rng = self.rng
        words: list[str] = []
        size = 0
        while size < length:
            word = _word(rng, script)
            if rng.random() < 0.08:
                word += script.comma
            elif rng.random() < 0.06:
                word += script.stop
            words.append(word)
            size += len(word) + len(script.space)
            if not script.space and not script.cjk and rng.random() < 0.2:
                words.append(" ")  # Thai, Khmer, Myanmar: a space between phrases
        return script.space.join(words)

    def message(self, script: Script) -> str:
        rng = self.rng
        out = [rng.choice(_NAMES) + ": "]
        for _ in range(rng.randint(1, 3)):
            out.append(self.text(script, rng.randint(*self._gap(15, 90))))
            out.append(self.placed(script))
        out.append(self.text(script, rng.randint(*self._gap(5, 40))) + script.stop)
        return "".join(out).replace("  ", " ").replace(script.stop * 2, script.stop)

    def _gap(self, lo: int, hi: int) -> tuple[int, int]:
        if self.scale == 1.0:
            return lo, hi
        return round(lo * self.scale), round(hi * self.scale)

    def _script(self) -> Script:
        rng = self.rng
        return rng.choice(SCRIPTS) if self.weights is None else rng.choices(SCRIPTS, self.weights)[0]

    def paragraph(self) -> list[str]:
        rng = self.rng
        script = self._script()
        return [self.message(script if rng.random() < 0.8 else self._script()) for _ in range(rng.randint(1, 5))]


def _lines(gen: _Generator, size: int) -> tuple[list[str], int]:
    lines: list[str] = []
    total = 0
    while total < size:
        if lines:
            lines.append("")
            total += 1
        for line in gen.paragraph():
            lines.append(line)
            total += len(line) + 1
    return lines, gen.links


def _per_link(seed: int, mix: Mix, scale: float) -> float:
    lines, links = _lines(_Generator(seed, mix, scale), 20_000)
    return sum(len(line) + 1 for line in lines) / max(1, links)


def _scale(seed: int, mix: Mix) -> float:
    """The factor on the text between links that gives ``mix.per_100`` links per 100 characters:
    characters per link are about linear in it (measured on 20,000 characters at 0 and 1)."""
    if mix.per_100 is None:
        return 1.0
    at0, at1 = _per_link(seed + 1, mix, 0.0), _per_link(seed + 1, mix, 1.0)
    return max(0.0, (100 / mix.per_100 - at0) / max(1e-9, at1 - at0))


def dense_lines(size: int = 150_000, seed: int = DEFAULT_SEED, mix: Mix | None = None) -> tuple[list[str], int]:
    """``(lines, links)``: about ``size`` characters of paragraphs (blank lines between them),
    and how many links were written into them."""
    mix = mix or Mix()
    return _lines(_Generator(seed, mix, _scale(seed, mix)), size)


def dense_text(size: int = 150_000, seed: int = DEFAULT_SEED, mix: Mix | None = None) -> str:
    """The corpus as one text (lines joined with ``\\n``)."""
    return "\n".join(dense_lines(size, seed, mix)[0])


def dense_corpus(size: int = 150_000, seed: int = DEFAULT_SEED, mix: Mix | None = None) -> tuple[list[str], str]:
    """``(lines, description)`` as ``bench.load_corpus`` returns them."""
    mix = mix or Mix()
    lines, links = dense_lines(size, seed, mix)
    chars = sum(len(line) + 1 for line in lines)
    return lines, (
        f"generated dense multilingual chat (seed {seed}, {mix.describe()}; {chars:,} chars, {len(lines):,} lines, "
        f"{links:,} links: {100 * links / chars:.2f} per 100 chars)"
    )
