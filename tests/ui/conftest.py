"""The window's tests: what a test leaves behind is freed on the GUI thread."""

from __future__ import annotations

import gc

import pytest


@pytest.fixture(autouse=True)
def qt_objects_die_on_the_gui_thread():
    """Objects a test leaves in reference cycles (windows, their controllers and signals) are
    collected here, on the GUI thread, once the test is over. Left to Python's collector they
    are freed by whichever thread next allocates enough, a worker loading the next test's
    skills for one, and a Qt object freed off its own thread can crash the process."""
    yield
    gc.collect()
