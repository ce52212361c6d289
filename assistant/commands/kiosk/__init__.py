"""The kiosk: an unattended public screen (full screen, locked, offline, supervised,
forgetting each visitor). The window is ``ui/kiosk.py``; this package is its engine
side (no Qt) and the ``assistant kiosk`` command."""
