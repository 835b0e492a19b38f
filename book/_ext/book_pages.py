"""Small Sphinx fixes for the book's pages (loaded through `_config.yml`'s `local_extensions`).

Jupyter Book 1.0.4 registers sphinx-thebe's and sphinx-togglebutton's inline configuration scripts twice on every
page; in a browser the second `const THEBE_JS_URL` is a console error ("Identifier 'THEBE_JS_URL' has already been
declared"). Each script is kept once, in its first position.

The bibliography's labels are author and year ("Peyrard et al. 2021", "Knowles 2021a"), as the text cites them:
pybtex's default alpha labels mangle names with accents ("[vDanikenDTC24]").
"""

from pybtex.style.formatting.alpha import Style as AlphaStyle
from pybtex.style.labels import BaseLabelStyle


def _surname(person) -> str:
    return " ".join(part.render_as("text") for part in person.rich_prelast_names + person.rich_last_names)


class AuthorYearLabels(BaseLabelStyle):
    """"Knowles 2021", "Levtsov and Ustalov 2025", "Peyrard et al. 2021"; a, b, ... after the year where two works
    would get the same label."""

    def format_labels(self, sorted_entries):
        labels = [self._label(entry) for entry in sorted_entries]
        seen = {}
        for label in labels:
            seen[label] = seen.get(label, 0) + 1
        count = {}
        for label in labels:
            if seen[label] > 1:
                count[label] = count.get(label, 0) + 1
                yield f"{label}{chr(ord('a') + count[label] - 1)}"
            else:
                yield label

    @staticmethod
    def _label(entry) -> str:
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [_surname(p) for p in people]
        if not names:
            names = [entry.fields.get("organization") or entry.fields.get("title", entry.key).split(":")[0]]
        who = names[0] if len(names) == 1 else " and ".join(names) if len(names) == 2 else f"{names[0]} et al."
        return f"{who} {entry.fields.get('year', '')}".strip()


class AuthorYearStyle(AlphaStyle):
    """pybtex's alpha style (sorted by author, year, title) with :class:`AuthorYearLabels`."""

    default_label_style = AuthorYearLabels


def _unique_scripts(app, pagename, templatename, context, doctree):
    seen, kept = set(), []
    for script in context.get("script_files", []):
        # the copies differ only in an empty file name given as None or as ""
        key = (str(getattr(script, "filename", script) or ""),
               tuple(sorted((k, str(v)) for k, v in getattr(script, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            kept.append(script)
    if "script_files" in context:
        context["script_files"][:] = kept


def setup(app):
    from pybtex.plugin import register_plugin

    register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
    app.connect("html-page-context", _unique_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
