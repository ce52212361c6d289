"""The language of the screens: Qt translations (``translations/assistant_<lang>.qm``),
chosen by the language setting or else the system locale, and a check that a font can
draw the language's script.

The ``.ts`` sources sit beside the ``.qm`` files; after changing ui strings run
``pyside6-lupdate ui/*.py -ts ui/translations/assistant_ko.ts``, translate, then
``pyside6-lrelease ui/translations/assistant_ko.ts``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication

from assistant import languages

log = logging.getLogger(__name__)

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
SCREEN_LANGUAGES = ("en", "ko")
_WRITING_SYSTEMS = {"ko": QFontDatabase.WritingSystem.Korean}
_FONT_PROBLEMS = {"ko": languages.NO_KOREAN_FONT}
_PACKAGED_FONTS = {"ko": lambda: languages.packaged_korean_font()}
"""The font file a language's extra installs (None when it is not installed)."""
_registered: dict[str, list[str]] = {}
"""Font files registered with Qt in this process: their families."""


def screen_language(setting: str, system_locale: str | None = None) -> str:
    """The setting when the screens exist in it (Korean), else the system locale's
    language when they do, else English."""
    if setting in SCREEN_LANGUAGES and setting != "en":
        return setting
    system = (system_locale or QLocale.system().name()).split("_")[0].lower()
    return system if system in SCREEN_LANGUAGES else "en"


def install(app: QApplication, language: str) -> list[QTranslator]:
    """Load the app's and Qt's own translations for ``language`` into ``app``; returns
    the translators installed (kept on the app so they live as long as it)."""
    for old in getattr(app, "_assistant_translators", []):
        app.removeTranslator(old)
    installed: list[QTranslator] = []
    if language != "en":
        for name, folder in ((f"assistant_{language}", TRANSLATIONS),
                             (f"qtbase_{language}", Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)))):
            translator = QTranslator(app)
            if translator.load(name, str(folder)):
                app.installTranslator(translator)
                installed.append(translator)
    app._assistant_translators = installed
    return installed


def load_packaged_font(language: str) -> list[str]:
    """Register the font that ``language``'s extra installs with Qt (one file, a few
    milliseconds); its families, or [] when the package is not installed or Qt cannot read
    the file. A file is registered once per process."""
    find = _PACKAGED_FONTS.get(language)
    path = find() if find else None
    if path is None:
        return []
    if str(path) not in _registered:
        font_id = QFontDatabase.addApplicationFont(str(path))
        _registered[str(path)] = QFontDatabase.applicationFontFamilies(font_id) if font_id != -1 else []
        if font_id == -1:
            log.warning("Qt could not read the font %s", path)
        else:
            log.info("registered the font %s from %s", ", ".join(_registered[str(path)]), path)
    return _registered[str(path)]


def font_problem(language: str) -> str | None:
    """A one-line message when no font can draw ``language``'s script: none on the system
    and none from the language's extra (registered here when the system has none)."""
    system = _WRITING_SYSTEMS.get(language)
    if system is None:
        return None
    if families := QFontDatabase.families(system):
        log.info("fonts that draw %s: %s", language, ", ".join(families[:3]))
        return None
    if load_packaged_font(language) and QFontDatabase.families(system):
        return None
    return _FONT_PROBLEMS[language]


def setup(app: QApplication, setting: str) -> tuple[str, str | None]:
    """Translate the screens for the language setting; (language, font problem or None)."""
    language = screen_language(setting)
    install(app, language)
    return language, font_problem(language)
