"""The latency meter: the last turn as a stacked bar, the session as median, p95 and a
sparkline. It reads each turn's :class:`assistant.timeline.Timeline` and nothing else.
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from assistant.timeline import Timeline

GOOD_MS = 500.0
SLOW_MS = 1000.0
GREEN, AMBER, RED = QColor("#2e9d4f"), QColor("#d99a00"), QColor("#d03b3b")
INK, MUTED, TRACK = QColor("#1f2328"), QColor("#6e7781"), QColor("#eaeef2")

STAGES = (
    ("endpoint_wait", QT_TRANSLATE_NOOP("LatencyMeter", "endpoint"), QColor("#8c6bb1")),
    ("stt", QT_TRANSLATE_NOOP("LatencyMeter", "STT"), QColor("#4c78a8")),
    ("ttft", QT_TRANSLATE_NOOP("LatencyMeter", "first token"), QColor("#f58518")),
    ("first_clause", QT_TRANSLATE_NOOP("LatencyMeter", "first clause"), QColor("#e8c547")),
    ("tts_first_chunk", QT_TRANSLATE_NOOP("LatencyMeter", "TTS first audio"), QColor("#54a24b")),
)
"""``first_clause`` (first token to first chunk: the chunker waiting for a clause boundary)
comes from the marks; the others are :meth:`Timeline.latency_ms` figures. The labels are English,
marked for translation (the meter shows them through its ``tr()``)."""
OTHER = (QT_TRANSLATE_NOOP("LatencyMeter", "other"), QColor("#b6bcc3"))
"""Time between the stages: queues and hand-overs."""


def grade(ms: float) -> QColor:
    return GREEN if ms < GOOD_MS else AMBER if ms < SLOW_MS else RED


def fmt_ms(ms: float | None) -> str:
    if ms is None:
        return "–"
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"


@dataclass(frozen=True)
class TurnFigures:
    """What the meter shows of one turn, derived from its timeline alone."""

    total: float | None
    """Voice to voice (typed turns: from the text to the first sound)."""
    stages: tuple[tuple[str, float | None], ...]
    other: float
    """Time between the named stages; 0 when they overlap."""
    overlap: bool
    """The stages add up to more than the total: the reply started before the endpoint."""
    cached: bool
    spoken: bool = True
    """A spoken turn; typed turns are counted apart (they have no speech to wait after)."""
    heard: float | None = None
    """The wait a listener heard: last audible sample of the words to the first of the reply."""
    decision: str | None = None
    """How the end of turn was decided ("complete at 160 ms of silence")."""
    wake: str | None = None
    """How the wake phrase was heard ("wake phrase 92/100 in 140 ms"), for a turn it began."""

    @property
    def headline(self) -> float | None:
        """The figure shown big: the heard wait when known, else the timeline's."""
        return self.heard if self.heard is not None else self.total

    @classmethod
    def from_timeline(cls, timeline: Timeline) -> "TurnFigures":
        latency = timeline.latency_ms()
        marks = timeline.marks_ms()
        if "llm_first_token" in marks and "first_chunk" in marks:
            latency["first_clause"] = max(0.0, marks["first_chunk"] - marks["llm_first_token"])
        stages = tuple((key, latency.get(key)) for key, _, _ in STAGES)
        total = latency.get("voice_to_voice")
        known = sum(ms for _, ms in stages if ms is not None)
        other = max(0.0, total - known) if total is not None else 0.0
        overlap = total is not None and known > total + 0.5
        return cls(total, stages, other, overlap, bool(timeline.counts.get("cache_hit")), timeline.spoken,
                   latency.get("heard"), timeline.decision(), timeline.wake())


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100): an actual observed turn, never interpolated."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil
    return ordered[int(rank) - 1]


KEPT_TURNS = 1000
"""Turns the session statistics are taken over (the latest; a kiosk runs for weeks)."""


class LatencyHistory:
    """Session statistics over the latest ``kept`` spoken turns that produced sound;
    typed turns apart. ``spoken`` and ``typed_count`` count every turn of the session."""

    def __init__(self, spark_turns: int = 30, kept: int = KEPT_TURNS):
        self.spark_turns = spark_turns
        self.turns: deque[TurnFigures] = deque(maxlen=kept)
        self.typed: deque[TurnFigures] = deque(maxlen=kept)
        self.spoken = 0
        self.typed_count = 0

    def add(self, figures: TurnFigures) -> None:
        if figures.headline is None:
            return
        if figures.spoken:
            self.turns.append(figures)
            self.spoken += 1
        else:
            self.typed.append(figures)
            self.typed_count += 1

    @property
    def totals(self) -> list[float]:
        """Spoken turns: the heard wait where known."""
        return [t.headline for t in self.turns if t.headline is not None]

    @property
    def typed_totals(self) -> list[float]:
        return [t.headline for t in self.typed if t.headline is not None]

    def median(self) -> float | None:
        return percentile(self.totals, 50)

    def p95(self) -> float | None:
        return percentile(self.totals, 95)

    def recent(self) -> list[TurnFigures]:
        return list(itertools.islice(self.turns, max(0, len(self.turns) - self.spark_turns), None))


class LatencyMeter(QWidget):
    """Painted with QPainter; :meth:`show_turn` while a reply plays, :meth:`add_turn` at its end."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.history = LatencyHistory()
        self.last: TurnFigures | None = None
        self.voices: list[str] = []
        """The voices that spoke the last turn."""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(138)
        self.setAccessibleName("latency meter")

    def sizeHint(self) -> QSize:
        return QSize(760, 138)

    def show_turn(self, timeline: Timeline) -> None:
        """Show a turn in progress (its first sound has been heard)."""
        self.last = TurnFigures.from_timeline(timeline)
        self.voices = []
        self.update()

    def add_turn(self, timeline: Timeline, voices: list[str] | tuple[str, ...] = ()) -> None:
        """A finished turn: show it (with the voices that spoke it) and count it in the session figures."""
        self.last = TurnFigures.from_timeline(timeline)
        self.voices = list(voices)
        self.history.add(self.last)
        self._update_tooltip()
        self.update()

    def _update_tooltip(self) -> None:
        last = self.last
        if last and last.total is not None:
            parts = [f"{label}: {fmt_ms(ms)}" for label, ms, _color in self._stages(last)]
            head = [self.tr("heard %s") % fmt_ms(last.heard)] if last.heard is not None else []
            head.append(self.tr("voice to voice %s (timeline)") % fmt_ms(last.total))
            if last.decision:
                head.append(self.tr("end of turn: %s") % last.decision)
            if last.wake:
                head.append(last.wake)
            self.setToolTip("\n".join(head + parts))

    def _stages(self, last: TurnFigures) -> list[tuple[str, float | None, QColor]]:
        """(label in the screens' language, ms, colour) of each stage of ``last``, "other" last."""
        named = [(self.tr(label), ms, color) for (_, ms), (_, label, color) in zip(last.stages, STAGES)]
        return [*named, (self.tr(OTHER[0]), last.other, OTHER[1])]

    # ------------------------------------------------------------ painting

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(10, 8, -10, -8)
        painter.fillRect(self.rect(), QColor("#ffffff"))
        split = rect.width() * 0.60
        self._paint_last(painter, QRectF(rect.left(), rect.top(), split - 16, rect.height()))
        painter.setPen(QPen(TRACK, 1))
        painter.drawLine(QPointF(rect.left() + split - 8, rect.top()), QPointF(rect.left() + split - 8, rect.bottom()))
        self._paint_session(painter, QRectF(rect.left() + split, rect.top(), rect.width() - split, rect.height()))
        painter.end()

    def _font(self, delta: float = 0.0, bold: bool = False) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(6.0, font.pointSizeF() + delta))
        font.setBold(bold)
        return font

    def _paint_last(self, p: QPainter, r: QRectF) -> None:
        p.setFont(self._font(-1))
        p.setPen(MUTED)
        last = self.last
        title = self.tr("LAST TURN") + " · " + (
            self.tr("typed: text to first sound") if last and not last.spoken
            else self.tr("heard voice to voice") if last and last.heard is not None else self.tr("voice to voice"))
        if last is not None and self.voices:
            title += " · " + self.tr("spoken by %s") % ", ".join(self.voices)
        p.drawText(QRectF(r.left(), r.top(), r.width(), 18), Qt.AlignmentFlag.AlignLeft, title)
        if last is None or last.headline is None:
            p.setFont(self._font(0))
            text = self.tr("no turns yet — ask something") if last is None else self.tr("no reply audio in the last turn")
            p.drawText(QRectF(r.left(), r.top() + 26, r.width(), 24), Qt.AlignmentFlag.AlignLeft, text)
            return
        p.setFont(self._font(5, bold=True))
        p.setPen(grade(last.headline))
        total_rect = QRectF(r.left(), r.top() + 16, r.width(), 28)
        p.drawText(total_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, fmt_ms(last.headline))
        x = r.left() + p.fontMetrics().horizontalAdvance(fmt_ms(last.headline)) + 10
        if last.cached:
            x += self._badge(p, QPointF(x, r.top() + 22), "instant reply (cache)") + 8
        notes = [f"timeline {fmt_ms(last.total)}"] if last.heard is not None and last.total is not None else []
        if last.decision:
            notes.append(last.decision)
        if last.wake:
            notes.append(last.wake)
        if notes:
            p.setFont(self._font(-1.5))
            p.setPen(MUTED)
            p.drawText(QRectF(x, r.top() + 16, r.right() - x, 28), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                       " · ".join(notes))
        bar = QRectF(r.left(), r.top() + 60, r.width(), 16)
        self._paint_bar(p, bar, last)
        self._paint_legend(p, QRectF(r.left(), bar.bottom() + 8, r.width(), 16), last)

    def _badge(self, p: QPainter, at: QPointF, text: str) -> float:
        """Draws a rounded label at ``at``; returns its width."""
        p.setFont(self._font(-1.5, bold=True))
        width = p.fontMetrics().horizontalAdvance(text) + 12
        box = QRectF(at.x(), at.y(), width, 17)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#ddf4ff"))
        p.drawRoundedRect(box, 8, 8)
        p.setPen(QColor("#0969da"))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        return width

    def _paint_bar(self, p: QPainter, bar: QRectF, last: TurnFigures) -> None:
        stacked = sum(ms for _, ms in last.stages if ms) + last.other
        scale_ms = max(SLOW_MS * 1.2, (last.total or 0) * 1.05, stacked * 1.05)
        px = bar.width() / scale_ms
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(TRACK)
        p.drawRoundedRect(bar, 3, 3)
        x = bar.left()
        segments = [(ms, color) for (_, ms), (_, _, color) in zip(last.stages, STAGES) if ms]
        segments.append((last.other, OTHER[1]))
        for ms, color in segments:
            width = ms * px
            p.setBrush(color)
            p.drawRect(QRectF(x, bar.top(), width, bar.height()))
            x += width
        if last.overlap:  # the stages ran partly during the endpoint wait: the total is shorter
            tx = bar.left() + (last.total or 0) * px
            p.setPen(QPen(INK, 2))
            p.drawLine(QPointF(tx, bar.top() - 4), QPointF(tx, bar.bottom() + 4))
        p.setFont(self._font(-2.5))
        crowded = (SLOW_MS - GOOD_MS) * px < 48  # long turns squeeze the thresholds together
        for limit, color in ((GOOD_MS, AMBER), (SLOW_MS, RED)):
            lx = bar.left() + limit * px
            p.setPen(QPen(color, 1.5, Qt.PenStyle.DashLine))
            p.drawLine(QPointF(lx, bar.top() - 3), QPointF(lx, bar.bottom() + 3))
            if crowded and limit == GOOD_MS:
                continue
            p.setPen(color)
            p.drawText(QRectF(lx - 40, bar.top() - 15, 80, 12), Qt.AlignmentFlag.AlignCenter, fmt_ms(limit))

    def _paint_legend(self, p: QPainter, r: QRectF, last: TurnFigures) -> None:
        """One entry per stage, wrapping onto a second line when the meter is narrow."""
        p.setFont(self._font(-1.5))
        metrics = p.fontMetrics()
        items = [(label, fmt_ms(ms), color, bool(ms)) for label, ms, color in self._stages(last)]
        if last.overlap:
            items.append((self.tr("stages overlap: the reply started before the endpoint"), "", INK, True))
        x, y = r.left(), r.top()
        for label, value, color, present in items:
            text = f"{label} {value}".strip()
            width = 13 + metrics.horizontalAdvance(text)
            if x > r.left() and x + width > r.right():
                x, y = r.left(), y + r.height()
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(color if present else TRACK)
            p.drawRoundedRect(QRectF(x, y + 3, 9, 9), 2, 2)
            p.setPen(INK if present else MUTED)
            p.drawText(QRectF(x + 13, y, width, r.height()), Qt.AlignmentFlag.AlignLeft, text)
            x += width + 14

    def _paint_session(self, p: QPainter, r: QRectF) -> None:
        history = self.history
        p.setFont(self._font(-1))
        p.setPen(MUTED)
        count = history.spoken
        title = self.tr("SESSION · %n spoken turn(s)", "", count)
        typed = history.typed_totals
        if typed:
            title += " · " + self.tr("typed %s, median %s") % (history.typed_count, fmt_ms(percentile(typed, 50)))
        p.drawText(QRectF(r.left(), r.top(), r.width(), 18), Qt.AlignmentFlag.AlignLeft, title)
        median, p95 = history.median(), history.p95()
        x = r.left()
        for label, value in ((self.tr("median"), median), ("p95", p95)):
            p.setFont(self._font(-1))
            p.setPen(MUTED)
            p.drawText(QRectF(x, r.top() + 22, 60, 20), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
            x += p.fontMetrics().horizontalAdvance(label) + 6
            p.setFont(self._font(1.5, bold=True))
            p.setPen(grade(value) if value is not None else MUTED)
            text = fmt_ms(value)
            p.drawText(QRectF(x, r.top() + 20, 120, 24), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
            x += p.fontMetrics().horizontalAdvance(text) + 18
        self._paint_sparkline(p, QRectF(r.left(), r.top() + 52, r.width(), r.height() - 52))

    def _paint_sparkline(self, p: QPainter, r: QRectF) -> None:
        turns = self.history.recent()
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#f6f8fa"))
        p.drawRoundedRect(r, 4, 4)
        if not turns:
            return
        inner = r.adjusted(6, 5, -6, -5)
        top_ms = max(SLOW_MS * 1.2, max(t.headline for t in turns) * 1.1)

        def y(ms: float) -> float:
            return inner.bottom() - min(ms, top_ms) / top_ms * inner.height()

        for limit, color in ((GOOD_MS, AMBER), (SLOW_MS, RED)):
            p.setPen(QPen(color, 1, Qt.PenStyle.DotLine))
            p.drawLine(QPointF(inner.left(), y(limit)), QPointF(inner.right(), y(limit)))
        step = inner.width() / max(1, self.history.spark_turns - 1)
        points = [QPointF(inner.left() + i * step, y(t.headline)) for i, t in enumerate(turns)]
        if len(points) > 1:
            path = QPainterPath(points[0])
            for point in points[1:]:
                path.lineTo(point)
            p.setPen(QPen(QColor("#8c959f"), 1.5))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPath(path)
        for point, turn in zip(points, turns):
            color = grade(turn.headline)
            if turn.cached:  # instant replies: a hollow diamond
                p.setPen(QPen(color, 1.8))
                p.setBrush(QColor("#ffffff"))
                d = 4.5
                p.drawPolygon(QPolygonF([point + QPointF(0, -d), point + QPointF(d, 0), point + QPointF(0, d), point + QPointF(-d, 0)]))
            else:
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(color)
                p.drawEllipse(point, 3.2, 3.2)
