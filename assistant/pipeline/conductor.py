"""The conductor: the stages' view of the turns, in parts by what each decides.

- :class:`~.turn_book.TurnBook`: the :class:`~.turns.TurnState` behind one lock, the turns'
  results, and a turn's close (its end event, the history as the user heard it);
- :class:`~.answering.Answering`: a turn's start, its words at pauses, the reply started
  before the endpoint (speculation) and dropped when the user speaks on, and the commit;
- :class:`~.overlaps.Overlaps`: speech over the reply (barge-in) and what it does to the reply;
- :class:`~.interruptions.Interruptions`: a turn dropped at once, its stages flushed.

They share the book's lock and state; the engine wires them to the stages once, through
:class:`~.links.Links` (every link required).
"""

from __future__ import annotations

from assistant.pipeline.answering import Answering
from assistant.pipeline.bus import EventBus
from assistant.pipeline.interruptions import Interruptions
from assistant.pipeline.links import Links
from assistant.pipeline.overlaps import Overlaps
from assistant.pipeline.turn_book import TurnBook


class Conductor:
    """Builds the parts in their order of use and wires them to the stages."""

    def __init__(self, bus: EventBus, prefill_partials: bool = True, punctuated: bool = False):
        self.book = TurnBook(bus)
        self.interruptions = Interruptions(self.book)
        self.overlaps = Overlaps(self.book, self.interruptions)
        self.answering = Answering(self.book, self.interruptions, self.overlaps,
                                   prefill_partials=prefill_partials, punctuated=punctuated)

    def connect(self, links: Links) -> None:
        for part in (self.book, self.interruptions, self.overlaps, self.answering):
            part.connect(links)
