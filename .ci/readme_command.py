"""Print one of the README's commands, as written there: the fenced block after
``<!-- README command: NAME -->``. CI runs these, not copies of them."""

import re
import sys
from pathlib import Path

name = sys.argv[1]
readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
match = re.search(r"<!-- README command: " + re.escape(name) + r" -->\s*```sh\n(.*?)\n```", readme, re.S)
if not match:
    sys.exit(f"README.md has no command marked {name!r}")
print(match.group(1).strip())
