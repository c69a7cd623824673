"""PAR sheet blocks (tools.par.sheet) to Markdown and to HTML.

HTML: each table is opened and closed by the block that holds it, with its caption as the table's
first child; `code` spans become <code>; a figure's cell is right-aligned. Markdown: a table's
caption is a bold line above it; the charts are SVG files beside the .md, linked as images; a long
fraction is an indented code block, numerator then denominator.
"""
from __future__ import annotations

import html
import re

CODE = re.compile(r"`([^`]+)`")

CSS = ("body{font-family:'DejaVu Sans',sans-serif;font-size:14px;margin:24px;max-width:1100px}"
       "table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #999;padding:3px 6px}"
       "th{background:#eee}caption{text-align:left;font-weight:bold;padding:4px 0}"
       "td.n{text-align:right}svg.chart{display:block;margin:8px 0 20px}"
       "code{font-size:12px;word-break:break-all}"
       ".fraction{margin:8px 0 16px;font-family:'DejaVu Sans Mono',monospace;font-size:12px}"
       ".fraction .num{border-bottom:1px solid #000;padding-bottom:2px;display:inline-block}"
       ".fraction .den{padding-top:2px}"
       "svg.paylines{display:block;margin:8px 0 20px}"
       "@media print{table,svg,.fraction{break-inside:avoid}h2{break-after:avoid}}")


def inline_html(s: str) -> str:
    return CODE.sub(lambda mt: "<code>%s</code>" % mt.group(1), html.escape(s, quote=False))


# a figure (right-aligned, as numbers line up); a word or a sentence stays left
FIGURE = re.compile(r"[\d.,/ %×()–\-]+|1 in [\d.,]+( \(.*\))?|.*\d %|exact: .*|E\d+: .*|[\d,]+ \(mean .*\)|[\d/]+ \(.*\)")


def _td(c: str, i: int) -> str:
    return "<td%s>%s</td>" % (' class="n"' if i and FIGURE.fullmatch(c) else "", inline_html(c))


def _cell(s: str) -> str:
    return s.replace("|", "\\|")


def markdown(blocks: list[tuple]) -> str:
    out: list[str] = []
    for b in blocks:
        kind = b[0]
        if kind == "h1":
            out += ["# " + b[1], ""]
        elif kind == "h2":
            out += ["## " + b[1], ""]
        elif kind == "h3":
            out += ["### " + b[1], ""]
        elif kind == "p":
            out += [b[1], ""]
        elif kind == "table":
            _, cap, head, rows = b
            out += ["**%s**" % cap, "", "| " + " | ".join(_cell(h) for h in head) + " |",
                    "|" + "---|" * len(head)]
            out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
            out.append("")
        elif kind == "svg":
            out += ["![%s](%s.svg)" % (b[1], b[1]), ""]
        elif kind == "fraction":
            _, name, what, num, den = b
            # an indented code block: the digits as they are, one line each
            out += ["**%s**: %s" % (name, what), "", "    numerator (%d digits)" % len("".join(num)),
                    *("    " + x for x in num), "    denominator (%d digits)" % len("".join(den)),
                    *("    " + x for x in den), ""]
    return "\n".join(out)


def page(title: str, blocks: list[tuple]) -> str:
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           "<title>%s</title>" % html.escape(title), "<style>%s</style>" % CSS, "</head>", "<body>"]
    for b in blocks:
        kind = b[0]
        if kind in ("h1", "h2", "h3", "p"):
            out.append("<%s>%s</%s>" % (kind, inline_html(b[1]), kind))
        elif kind == "table":
            _, cap, head, rows = b
            out.append("<table>")
            out.append("<caption>%s</caption>" % inline_html(cap))
            out.append("<thead><tr>%s</tr></thead>" % "".join("<th>%s</th>" % inline_html(h) for h in head))
            out.append("<tbody>")
            out += ["<tr>%s</tr>" % "".join(_td(c, i) for i, c in enumerate(row)) for row in rows]
            out.append("</tbody>")
            out.append("</table>")
        elif kind == "svg":
            out.append(b[2])
        elif kind == "fraction":
            _, name, what, num, den = b
            out.append('<div class="fraction" id="%s"><p><b>%s</b>: %s</p>' % (name, name, inline_html(what)))
            out.append('<div class="num">%s</div>' % "<br>".join(num))
            out.append('<div class="den">%s</div></div>' % "<br>".join(den))
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
