"""How Chromium matches `#:~:text=` directives: the text model, directives and the in-page probe.

Pure and shared: the build, the gates and the request side all match text the same way.
"""
