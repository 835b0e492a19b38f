"""The win graphs of Fig. 1 and Figs. 8-13 drawn for the page, and the figures' shared sizes and colours. A layered
drawing in inches: rows from :func:`analysis.favi.graph_layers`, the order within a row chosen to keep arrows
uncrossed, waypoints for arrows that pass over rows, each win an arrow between the borders of two boxes."""

from __future__ import annotations

import re
from dataclasses import dataclass

import networkx as nx
import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
from matplotlib.path import Path
from matplotlib.textpath import TextPath

from ... import favi

#: the colour of a metric's win that the humans' graph does not imply (drawn dashed as well)
NOT_IMPLIED = "#C44E52"
#: the font size of node labels, tick labels and legends (points); titles are one point larger
FONT = 9
COLORS = {"sample": "#DD8452", "system": "#4C72B0", "favi": "#55A868", "null": "#8C8C8C"}
#: the widest figure the book shows without shrinking it below 55% of its width (inches at 150 dpi)
MAX_WIDTH = 9.1


def node_label(name, width: int = 11) -> str:
    """A system's name on two lines when longer than ``width``: cut where the longer line is shortest (pieces of at
    least three characters; a separator wins a tie)."""
    name = str(name)
    cuts = [(max(len(head), len(tail)), match.end() == match.start(), f"{head}\n{tail}")
            for match in re.finditer(r"[ _\-]|(?<=[a-z0-9])(?=[A-Z(])", name)
            for head, tail in [(name[:match.end()].rstrip(), name[match.end():].lstrip())]
            if min(len(head), len(tail)) >= 3]  # a separator wins a tie (False < True), then the first cut
    return min(cuts, key=lambda cut: cut[:2])[2] if len(name) > width and cuts else name


@dataclass
class GraphLayout:
    """A win graph placed in inches: box centres and sizes, rows (top first), the bends of arrows that span rows, and
    the extent (x from -width/2, y from ``top`` down)."""

    pos: dict
    size: dict
    labels: dict
    layers: list
    routes: dict
    width: float
    height: float
    top: float


def text_size(text: str, fontsize: float) -> tuple[float, float]:
    prop = FontProperties(size=fontsize)
    lines = text.split("\n")
    width = max(TextPath((0, 0), line, size=fontsize, prop=prop).get_extents().width for line in lines)
    return width / 72, len(lines) * fontsize * 1.2 / 72


def crossings(graph, order: list[list]) -> int:
    """How many pairs of links between adjacent rows cross."""
    index = {n: (r, k) for r, members in enumerate(order) for k, n in enumerate(members)}
    total = 0
    for r in range(len(order) - 1):
        links = [(index[u][1], index[v][1]) for u in order[r] for v in graph.successors(u)
                 if index[v][0] == r + 1]
        total += sum((a1 - a2) * (b1 - b2) < 0 for i, (a1, b1) in enumerate(links) for a2, b2 in links[i + 1:])
    return total


def _ordered_layers(graph, layers: list[list], sweeps: int = 12) -> list[list]:
    """Each row ordered to keep links uncrossed: barycentre sweeps, alternately down and up, keeping the order with
    the fewest :func:`crossings`."""
    order = [list(m) for m in layers]
    best, fewest = [list(m) for m in order], crossings(graph, order)
    for sweep in range(sweeps):
        down = sweep % 2 == 0
        neighbours = graph.predecessors if down else graph.successors
        for r in (range(1, len(order)) if down else range(len(order) - 2, -1, -1)):
            known = {n: k - (len(members) - 1) / 2 for members in order for k, n in enumerate(members)}
            # stable: equal centres keep their order; a node without neighbours keeps its own place
            order[r] = sorted(order[r], key=lambda n, known=known, near=neighbours: float(
                np.mean([known[m] for m in near(n)] or [known[n]])))
        count = crossings(graph, order)
        if count < fewest:
            best, fewest = [list(m) for m in order], count
    return best


def _with_waypoints(graph, layers: list[list]):
    """The rows with a waypoint in every row an edge passes over, the graph through them, and each edge's waypoints."""
    row = {n: r for r, members in enumerate(layers) for n in members}
    linked = nx.create_empty_copy(graph)
    rows, via = [list(m) for m in layers], {}
    for u, v in graph.edges:
        via[(u, v)] = [("via", str(u), str(v), r) for r in range(row[u] + 1, row[v])]
        for point in via[(u, v)]:
            rows[point[3]].append(point)
        linked.add_edges_from(zip([u, *via[(u, v)]], [*via[(u, v)], v]))
    return rows, linked, via


def layout_win_graph(graph, fontsize: float = FONT, row_step: float = 0.66, gap: float = 0.2) -> GraphLayout:
    """Place a win graph top-down in inches: rows ``row_step`` apart, boxes ``gap`` apart, each row centred."""
    rows, linked, via = _with_waypoints(graph, favi.graph_layers(graph))
    rows = _ordered_layers(linked, rows)
    labels = {n: node_label(n) for n in graph.nodes}
    size = {node: (w + 0.14, h + 0.08) for node, text in labels.items() for w, h in [text_size(text, fontsize)]}
    pos, width = {}, 0.0
    for r, members in enumerate(rows):
        widths = [size[n][0] if n in size else 0.04 for n in members]
        span = sum(widths) + gap * (len(members) - 1)
        width = max(width, span)
        x = -span / 2
        for node, w in zip(members, widths):
            pos[node] = (x + w / 2, -r * row_step)
            x += w + gap
    routes = {edge: [pos[p] for p in points] for edge, points in via.items()}
    tallest = max((s[1] for s in size.values()), default=0.3)
    return GraphLayout(pos={n: pos[n] for n in graph.nodes}, size=size, labels=labels,
                       layers=[[n for n in members if n in size] for members in rows], routes=routes,
                       width=width + 0.1, height=row_step * (len(rows) - 1) + tallest + 0.1, top=tallest / 2 + 0.05)


def spread(centre, size, towards, share: float = 0.3):
    """Where an arrow aims at a box: moved sideways towards its other end, so that arrows meeting at a box end apart."""
    shift = float(np.clip(share * (towards[0] - centre[0]), -size[0] / 3, size[0] / 3))
    return centre[0] + shift, centre[1]


def box_exit(aim, half_size, towards, centre=None, margin: float = 0.02):
    """Where the segment from ``aim`` towards ``towards`` leaves the box around ``centre`` (grown by ``margin``)."""
    (ax_, ay), (hw, hh) = aim, half_size
    cx, cy = centre if centre is not None else aim
    dx, dy = towards[0] - ax_, towards[1] - ay
    # the segment leaves the box at the first side it crosses: right or left, top or bottom
    t = min(1.0, ((cx + np.sign(dx) * (hw + margin)) - ax_) / dx if dx else np.inf,
            ((cy + np.sign(dy) * (hh + margin)) - ay) / dy if dy else np.inf)
    return ax_ + t * dx, ay + t * dy


def smooth_path(points) -> Path:
    """A Catmull-Rom curve through ``points`` as cubic Bézier pieces; two points give a line."""
    points = np.asarray(points, dtype=float)
    if len(points) == 2:
        return Path(points, [Path.MOVETO, Path.LINETO])
    padded = np.vstack([points[0], points, points[-1]])
    vertices, codes = [points[0]], [Path.MOVETO]
    for k in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[k - 1:k + 3]
        vertices += [p1 + (p2 - p0) / 6, p2 - (p3 - p1) / 6, p2]
        codes += [Path.CURVE4] * 3
    return Path(np.array(vertices), codes)


def arrow_points(layout: GraphLayout, u, v) -> list:
    points = [layout.pos[u], *layout.routes.get((u, v), []), layout.pos[v]]
    for end, node, towards in ((0, u, 1), (-1, v, -2)):  # each end on its box's border, aimed at its neighbour
        points[end] = box_exit(spread(points[end], layout.size[node], points[towards]), np.divide(layout.size[node], 2),
                               points[towards], centre=points[end])
    return points


def draw_win_graph(ax, graph, layout: GraphLayout, reference=None, title: str = "") -> None:
    """A win graph in ``ax`` (axes units are inches); with a ``reference`` graph, the arrows its transitive closure
    lacks are red and dashed."""
    boxes = {}
    for node, (x, y) in layout.pos.items():
        w, h = layout.size[node]
        boxes[node] = FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0,rounding_size=0.05",
                                     fc="#eef3fa", ec="#4C72B0", lw=0.8, zorder=2)
        ax.add_patch(boxes[node])
        ax.text(x, y, layout.labels[node], ha="center", va="center", fontsize=FONT, linespacing=1.1, zorder=3)
    closure = nx.transitive_closure(reference) if reference is not None else None
    for u, v in graph.edges:
        implied = closure is None or closure.has_edge(u, v)
        style = {"arrowstyle": "-|>", "mutation_scale": 10, "lw": 1.0, "zorder": 1,
                 "color": "#555555" if implied else NOT_IMPLIED, "ls": "-" if implied else "--"}
        (xu, yu), (xv, yv) = layout.pos[u], layout.pos[v]
        if yu == yv:  # a win inside a cycle's row: a bow over the boxes between
            ax.add_patch(FancyArrowPatch((xu, yu), (xv, yv), patchA=boxes[u], patchB=boxes[v], shrinkA=0, shrinkB=1,
                                         connectionstyle="arc3,rad=0.45", **style))
            continue
        ax.add_patch(FancyArrowPatch(path=smooth_path(arrow_points(layout, u, v)), **style))
    ax.set_xlim(-layout.width / 2, layout.width / 2)
    ax.set_ylim(layout.top - layout.height, layout.top)
    ax.set_aspect("equal", adjustable="box")
    ax.set_axis_off()
    ax.set_title(title + (" (a cycle: no edge removed)" if graph.graph.get("cyclic") else ""), fontsize=FONT + 1,
                 loc="left")
