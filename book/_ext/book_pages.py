"""Small Sphinx fixes for the book's pages (loaded through `_config.yml`'s `local_extensions`).

Jupyter Book 1.0.4 registers sphinx-thebe's and sphinx-togglebutton's inline configuration scripts twice on every
page; in a browser the second `const THEBE_JS_URL` is a console error ("Identifier 'THEBE_JS_URL' has already been
declared"). Each script is kept once, in its first position.
"""


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
    app.connect("html-page-context", _unique_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
