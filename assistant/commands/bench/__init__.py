"""The benchmark: spoken questions through the streaming pipeline and through the naive
serial chain, on the same loaded models, reported side by side (``assistant bench``).

Every figure is read from the turns' :class:`~assistant.timeline.Timeline` objects.
"""

from assistant.commands.bench.command import add_parser

__all__ = ["add_parser"]
