"""The book's numbered, captioned figures: a MyST-NB output renderer (registered in ``pyproject.toml`` under the
``myst_nb.mime_renderers`` entry point).

A chapter shows a figure through :meth:`analysis.recorder.Outputs.figure`, which displays the saved PNG with its
label, caption and alt text in the output's metadata (:data:`analysis.plotting.FIGURE_KEY`). In Jupyter that is a
plain image. When the book is built, this renderer wraps it in a Sphinx figure: numbered ("Figure 3"), captioned
(the caption is MyST Markdown, so it may cite with ``{cite}`` or link with ``{ref}``), with the alt text on the
image and the label as a target for ``{numref}``. Outputs without that metadata are left to MyST-NB.
"""

from __future__ import annotations

from docutils import nodes

from .plotting import FIGURE_KEY


class CaptionedFigures:
    """MyST-NB mime renderer plugin (see ``myst_nb.core.render.MimeRenderPlugin``)."""

    mime_priority_overrides = ()

    @staticmethod
    def handle_mime(renderer, data, inline):
        meta = (data.output_metadata or {}).get(FIGURE_KEY)
        if inline or not meta or data.mime_type != "image/png":
            return None
        document_renderer = renderer.renderer
        [image] = renderer.render_image(data)
        image["alt"] = meta["alt"]
        figure = nodes.figure(classes=["compendium-figure"])
        figure.line, figure.source = data.line, document_renderer.document["source"]
        figure += image
        holder = nodes.Element()
        with document_renderer.current_node_context(holder):
            document_renderer.nested_render_text(meta["caption"], data.line or 0)
        first, rest = holder.children[0], holder.children[1:]
        if not isinstance(first, nodes.paragraph):
            raise ValueError(f"figure {meta['label']!r}: a caption must open with a paragraph")
        figure += nodes.caption(first.rawsource, "", *first.children)
        if rest:
            figure += nodes.legend("", *rest)
        figure["names"].append(nodes.fully_normalize_name(meta["label"]))
        document_renderer.document.note_explicit_target(figure, figure)
        return [figure]
