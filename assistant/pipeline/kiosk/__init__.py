"""The kiosk's engine side (no Qt): a supervised session that forgets each visitor
(:mod:`.session`, :mod:`.memory`), its transcripts and bounded logs. The window is
``ui/kiosk.py``; the command is :mod:`assistant.commands.kiosk`."""
