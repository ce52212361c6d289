"""Think: words in; reply text out.

In: the user's words (a transcript or typed text). Out: the reply's text as it streams,
from an exact skill (:mod:`.skills`: clock, timers, arithmetic, units), an instant reply
for a short fixed phrase (:mod:`.replies`), or the language model (:mod:`.llm`, or a
server: :mod:`.remote_llm`) with its prompt (:mod:`.prompt`), guard (:mod:`.reply_guard`),
speculative draft (:mod:`.draft`) and prompt cache file (:mod:`.kvfile`). Nothing here
makes or hears sound."""
