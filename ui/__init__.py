"""PySide6 desktop front end. Imports assistant; assistant never imports ui."""
