"""The drawing kit every SVG drawer shares: an element builder, the style block, glyphs.

Pictures are built as an ``xml.etree`` tree, so text is always escaped and the
result is always well-formed XML. A ``Canvas`` is made per picture and thrown
away (nothing is kept between calls). Colour never carries meaning alone: every
coloured piece or token also carries its letter, sizes differ in outline and in
pip count (1, 2 or 3 pips, as on Icehouse pyramids), and marks differ in shape
(the last move is a dashed frame, a winning line a thick bar through the pieces).

Elements a browser may want to click carry data attributes: ``data-cell`` (a cell
or point in the game's notation), ``data-piece`` (a piece name, ``Gs``),
``data-stack`` (a stack bottom to top, ``GlBs``), ``data-token`` (a Quatrefoil token
letter), ``data-seat`` (1-based), ``data-corner`` and ``data-action``.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence

SVG_NS = "http://www.w3.org/2000/svg"

#: The one style block of every picture (classes are the API a page may restyle).
STYLE = """
.fourfold text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif}
.bg{fill:#fbf8f1}
.status{font-size:15px;font-weight:bold;fill:#222}
.note{font-size:12px;fill:#444}
.coord{font-size:12px;fill:#6b6458;text-anchor:middle;dominant-baseline:central}
.cell{fill:#efe6d0;stroke:#b9ab8c;stroke-width:1}
.cell.open{fill:#dcebcf}
.cell.closed{fill:url(#closed)}
.cell.dark{fill:#d9c9a6}
.area{fill:none;stroke:#4f7a3a;stroke-width:2.5;stroke-dasharray:7 4}
.area.fixed{stroke-dasharray:none}
.legal{fill:#4f7a3a;opacity:.55}
.piece .edge{stroke:#000;stroke-opacity:.35;stroke-width:1}
.piece .body{stroke:#1b1b1b;stroke-width:1.3}
.pip{fill:#fff;stroke:#000;stroke-opacity:.45;stroke-width:.6}
.letter{font-weight:bold;text-anchor:middle;dominant-baseline:central;fill:#fff;
 stroke:#000;stroke-width:2.2px;stroke-opacity:.75;paint-order:stroke;stroke-linejoin:round}
.letter.dark{fill:#111;stroke:#fff;stroke-opacity:.9}
.code{font-size:12px;text-anchor:middle;fill:#333;font-weight:bold}
.last{fill:none;stroke:#c2185b;stroke-width:3.5;stroke-dasharray:8 4}
.win{fill:none;stroke:#111;stroke-opacity:.55;stroke-width:14;stroke-linecap:round}
.win-ring{fill:none;stroke:#111;stroke-width:3.5}
.tray{fill:#f1ebdc;stroke:#cdbf9f;stroke-width:1}
.hand{fill:#fff6d8;stroke:#c2185b;stroke-width:2}
.label{font-size:12px;fill:#333}
.label.strong{font-weight:bold}
.count{font-size:12px;fill:#222;font-weight:bold}
.table{fill:#eee6d2;stroke:#8c7b59;stroke-width:1.5}
.axis{stroke:#a99a7a;stroke-width:1;stroke-dasharray:3 3}
.tick{font-size:12px;fill:#6b6458;text-anchor:middle}
.grid-fit{fill:none;stroke:#00838f;stroke-width:2}
.grid-fit.inner{stroke-width:1;stroke-dasharray:4 3}
.grid-candidate{fill:none;stroke:#00838f;stroke-opacity:.45;stroke-width:1.4;stroke-dasharray:6 4}
.grid-broken{fill:none;stroke:#c62828;stroke-width:3}
.quatrefoil{fill:#efe6d0;stroke:#8c7b59;stroke-width:2}
.slot{fill:#fff;fill-opacity:.55;stroke:#b9ab8c;stroke-width:1;stroke-dasharray:3 3}
.token{stroke:#1b1b1b;stroke-width:1.5}
.card{fill:#fff;stroke:#555;stroke-width:1.2}
.card.facedown{fill:url(#facedown);stroke:#555}
.card-text{font-size:13px;font-weight:bold;text-anchor:middle;dominant-baseline:central;fill:#222}
.signal.up{fill:#2e7d32;stroke:#1b1b1b;stroke-width:1}
.signal.down{fill:#fff;stroke:#777;stroke-width:1.5}
.signal-text{font-size:12px;fill:#333}
.you{fill:#fff6d8;stroke:#c2185b;stroke-width:1.5}
.arrow{stroke:#c2185b;stroke-width:3.5;fill:none;marker-end:url(#arrowhead)}
.correct{fill:none;stroke:#2e7d32;stroke-width:3.5}
.wrong{stroke:#c62828;stroke-width:3.5;stroke-linecap:round}
.banner.good{fill:#2e7d32}
.banner.bad{fill:#c62828}
.wide-only{display:none}
.banner-text{font-size:14px;font-weight:bold;fill:#fff;text-anchor:middle;dominant-baseline:central}
""".strip()

#: Approximate width of one character, as a fraction of the font size (for wrapping).
CHAR_WIDTH = 0.6


def fmt(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (short, stable output)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def is_light(colour: str) -> bool:
    """Whether dark text reads better than white on ``colour`` (``#rrggbb``)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 150


def wrap(text: str, width_px: float, font_px: float, max_lines: int = 3, *,
         em: float = CHAR_WIDTH) -> list[str]:
    """``text`` broken into lines that fit ``width_px`` at ``font_px`` (shortened at the end),
    a character taking ``em`` of the font size."""
    chars = max(8, int(width_px / (font_px * em)))
    lines = textwrap.wrap(text, chars, break_on_hyphens=False) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: chars - 1].rstrip() + "…"
    return lines


class Canvas:
    """One SVG picture under construction (``width`` x ``height`` user units)."""

    def __init__(self, width: float, height: float, title: str, *, size: int | None = None,
                 kind: str = "") -> None:
        ET.register_namespace("", SVG_NS)
        self.width = width
        self.height = height
        self.root = ET.Element("svg", {
            "xmlns": SVG_NS,
            "version": "1.1",
            "class": f"fourfold game-{kind}" if kind else "fourfold",
            "viewBox": f"0 0 {fmt(width)} {fmt(height)}",
            "width": fmt(size if size is not None else width),
            "height": fmt(height * size / width if size is not None else height),
            "role": "img",
        })
        ET.SubElement(self.root, "title").text = title
        ET.SubElement(self.root, "style").text = STYLE
        self.defs = ET.SubElement(self.root, "defs")
        self._patterns()
        self.rect(0, 0, width, height, cls="bg")

    def wide(self, width: float, height: float) -> None:
        """The picture also has a wide layout, ``width`` x ``height`` units, that a page
        may show on a wide window (``data-wide``): there the groups marked
        ``data-wide-at="dx dy"`` move by that much, ``wide-only`` parts show and
        ``narrow-only`` ones hide (render/svg/tray.py draws a tray so). Anywhere else
        the picture is the narrow one."""
        self.root.set("data-wide", f"{fmt(width)} {fmt(height)}")
        background = ET.Element("rect", {"x": "0", "y": "0", "width": fmt(width),
                                         "height": fmt(height), "class": "bg wide-only"})
        self.root.insert(list(self.root).index(self.defs) + 1, background)

    def _hatch(self, name: str, size: int, fill: str, stroke: str, width: int) -> None:
        """A pattern of diagonal stripes (``url(#name)``): a closed cell, a face-down card."""
        side = str(size)
        pattern = ET.SubElement(self.defs, "pattern", {
            "id": name, "width": side, "height": side, "patternUnits": "userSpaceOnUse",
            "patternTransform": "rotate(45)",
        })
        ET.SubElement(pattern, "rect", {"width": side, "height": side, "fill": fill})
        ET.SubElement(pattern, "line", {"x1": "0", "y1": "0", "x2": "0", "y2": side,
                                        "stroke": stroke, "stroke-width": str(width)})

    def _patterns(self) -> None:
        self._hatch("closed", 8, "#e4ddd0", "#cfc6b4", 3)
        self._hatch("facedown", 6, "#5c6bc0", "#9fa8da", 2)
        marker = ET.SubElement(self.defs, "marker", {
            "id": "arrowhead", "viewBox": "0 0 10 10", "refX": "6", "refY": "5",
            "markerWidth": "4", "markerHeight": "4", "orient": "auto-start-reverse",
        })
        ET.SubElement(marker, "path", {"d": "M0,0 L10,5 L0,10 z", "fill": "#c2185b"})

    # -- elements -------------------------------------------------------------------------
    def group(self, parent: ET.Element | None = None, *, cls: str = "",
              data: dict[str, str] | None = None, tip: str | None = None) -> ET.Element:
        """A ``<g>``; ``data`` keys become ``data-KEY`` attributes; ``tip`` a hover title."""
        attrs = {"class": cls} if cls else {}
        for key, value in (data or {}).items():
            attrs[f"data-{key}"] = value
        g = ET.SubElement(self.root if parent is None else parent, "g", attrs)
        if tip:
            ET.SubElement(g, "title").text = tip
        return g

    def add(self, parent: ET.Element | None, tag: str, cls: str = "",
            **attrs: str | float) -> ET.Element:
        values = {k.replace("_", "-"): v if isinstance(v, str) else fmt(v)
                  for k, v in attrs.items()}
        if cls:
            values["class"] = cls
        return ET.SubElement(self.root if parent is None else parent, tag, values)

    def rect(self, x: float, y: float, w: float, h: float, *, cls: str = "",
             parent: ET.Element | None = None, **attrs: str | float) -> ET.Element:
        return self.add(parent, "rect", cls, x=x, y=y, width=w, height=h, **attrs)

    def circle(self, cx: float, cy: float, r: float, *, cls: str = "",
               parent: ET.Element | None = None, **attrs: str | float) -> ET.Element:
        return self.add(parent, "circle", cls, cx=cx, cy=cy, r=r, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, cls: str = "",
             parent: ET.Element | None = None, **attrs: str | float) -> ET.Element:
        return self.add(parent, "line", cls, x1=x1, y1=y1, x2=x2, y2=y2, **attrs)

    def polyline(self, points: Iterable[tuple[float, float]], *, cls: str = "",
                 closed: bool = False, parent: ET.Element | None = None,
                 **attrs: str | float) -> ET.Element:
        text = " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)
        return self.add(parent, "polygon" if closed else "polyline", cls, points=text, **attrs)

    def path(self, d: str, *, cls: str = "", parent: ET.Element | None = None,
             **attrs: str | float) -> ET.Element:
        return self.add(parent, "path", cls, d=d, **attrs)

    def text(self, x: float, y: float, content: str, *, cls: str = "",
             parent: ET.Element | None = None, **attrs: str | float) -> ET.Element:
        element = self.add(parent, "text", cls, x=x, y=y, **attrs)
        element.text = content
        return element

    def lines_of_text(self, x: float, y: float, lines: Sequence[str], *, cls: str,
                      step: float) -> float:
        """Several lines of text from baseline ``y``; returns the baseline after the last."""
        for line in lines:
            self.text(x, y, line, cls=cls)
            y += step
        return y

    def to_string(self) -> str:
        return ET.tostring(self.root, encoding="unicode")


# -- glyphs ------------------------------------------------------------------------------------

#: Side of a pyramid seen from above, as a fraction of the unit, by size (small..large).
PYRAMID_SIDES = (0.46, 0.66, 0.86)


def pips(canvas: Canvas, parent: ET.Element, cx: float, y: float, count: int,
         spacing: float, r: float) -> None:
    """``count`` pips in a row centred on ``cx`` (Icehouse pyramids show 1, 2 or 3)."""
    for i in range(count):
        canvas.circle(cx + (i - (count - 1) / 2) * spacing, y, r, cls="pip", parent=parent)


#: the smallest font of a letter on a piece, in units (12 CSS px or more on a phone)
MIN_LETTER = 12.0


def pyramid(canvas: Canvas, parent: ET.Element, cx: float, cy: float, unit: float,
            size: int, fill: str, letter: str, *, strip: float | None = None) -> None:
    """A pyramid seen from above: a square with its four edges meeting at the apex,
    the size as 1-3 pips on the front face, the colour letter on the back face.

    A pyramid under another in a stack (``strip`` set) is covered but for an L-shaped
    strip ``strip`` wide along its top and left edges (the piece above sits towards its
    bottom right): its letter goes in the strip's corner and its pips along the top.
    """
    side = unit * PYRAMID_SIDES[size]
    h = side / 2
    x0, y0 = cx - h, cy - h
    canvas.rect(x0, y0, side, side, cls="body", parent=parent, fill=fill, rx=2)
    for ax, ay in ((x0, y0), (x0 + side, y0), (x0, y0 + side), (x0 + side, y0 + side)):
        canvas.line(ax, ay, cx, cy, cls="edge", parent=parent)
    dark = " dark" if is_light(fill) else ""
    if strip is not None:
        canvas.text(x0 + strip / 2, y0 + strip / 2 + 0.5, letter, cls="letter" + dark,
                    parent=parent, font_size=MIN_LETTER, stroke_width=1.6)
        pips(canvas, parent, x0 + strip + (side - strip) / 2, y0 + strip / 2, size + 1,
             strip * 0.5, max(1.4, strip * 0.16))
        return
    font = max(MIN_LETTER, side * 0.42)
    canvas.text(cx, cy - side * 0.16, letter, cls="letter" + dark, parent=parent,
                font_size=font)
    pips(canvas, parent, cx, cy + side * 0.3, size + 1, side * 0.17, max(1.5, side * 0.055))
