"""Print registry `files = [...]` lines for the mirror files of one repository whose paths match a regex.

Used to write data/registry.toml from the mirror's MANIFEST.tsv (url, bytes, sha256); the registry is then checked
against the mirror by tests/test_data.py. Example:

    python tools/pin_from_manifest.py jjzha/translationese 'analysis/ad-.*-good-stnd-redup\\.csv$'
"""

import argparse
import re
import sys
from pathlib import Path

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("repo")
parser.add_argument("pattern", nargs="+", help="regular expressions searched in the path inside the repository")
parser.add_argument("--manifest", default=Path(__file__).resolve().parents[1].parent / "shared/data/MANIFEST.tsv")
args = parser.parse_args()

prefix = f"https://raw.githubusercontent.com/{args.repo}/"
commits, lines = set(), []
for row in Path(args.manifest).read_text().splitlines()[1:]:
    url, size, sha = row.split("\t")
    if not url.startswith(prefix):
        continue
    commit, path = url[len(prefix):].split("/", 1)
    if any(re.search(p, path) for p in args.pattern):
        commits.add(commit)
        lines.append(f'  {{ path = "{path}", size = {size}, sha256 = "{sha}" }},')
if len(commits) != 1:
    sys.exit(f"expected files at exactly one commit, found {sorted(commits)}")
print(f'commit = "{commits.pop()}"')
print("files = [")
print("\n".join(sorted(lines)))
print("]")
