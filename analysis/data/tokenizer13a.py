"""sacrebleu's ``13a`` tokenisation one whitespace-separated word at a time (:class:`Tokenizer13a`), each distinct
word's tokens remembered for the process: the BLEU and JS tokens of :class:`analysis.data.textmetrics.SegmentScorer`.
"""

from __future__ import annotations

_WORD_TOKENS: dict[str, tuple[str, ...]] = {}  # word -> its 13a tokens

# sacrebleu's TokenizerRegexp rules (pattern, template) that Tokenizer13a reproduces
_RULES_13A = (
    (r"([\{-\~\[-\` -\&\(-\+\:-\@\/])", r" \1 "),
    (r"([^0-9])([\.,])", r"\1 \2 "),
    (r"([\.,])([^0-9])", r" \1 \2"),
    (r"([0-9])(-)", r"\1 \2 "),
)


class Tokenizer13a:
    """sacrebleu's ``13a`` tokenisation (``Tokenizer13a``), equal to it token for token (tested on every segment of
    WMT19 kk-en and on generated text), computed one whitespace-separated word at a time so that a caller can
    remember each distinct word's tokens. That is exact: each of sacrebleu's rules looks at two adjacent
    characters, and in them a whitespace character can only be "a character that is not a digit" -- which the
    space padding each word is as well --, is never consumed by a match that a later match would need, and is
    given back. The first rule, padding every character of one ASCII class with spaces, is a ``str.translate``;
    the others are sacrebleu's own expressions."""

    def __init__(self):
        from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

        rules = TokenizerRegexp()._re
        if tuple((rule.pattern, template) for rule, template in rules) != _RULES_13A:
            raise RuntimeError("sacrebleu's 13a tokenizer changed its rules: update Tokenizer13a")
        first = rules[0][0]
        self._padding = {c: f" {chr(c)} " for c in range(128) if first.fullmatch(chr(c))}  # an ASCII-only class
        self._rules = rules[1:]

    @staticmethod
    def words(line: str) -> list[str]:
        """The line's replacements (``Tokenizer13a.__call__``), then its whitespace-separated words."""
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        return line.split()

    def word(self, word: str) -> tuple[str, ...]:
        """The tokens of one word of :meth:`words` (``TokenizerRegexp.__call__`` on the padded word), remembered
        for the process."""
        out = _WORD_TOKENS.get(word)
        if out is None:
            line = f" {word} ".translate(self._padding)
            for rule, template in self._rules:
                line = rule.sub(template, line)
            if len(_WORD_TOKENS) >= 1 << 20:
                _WORD_TOKENS.clear()
            out = _WORD_TOKENS[word] = tuple(line.split())
        return out

    def __call__(self, line: str) -> str:
        return " ".join(t for w in self.words(line) for t in self.word(w))
