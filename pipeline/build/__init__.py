"""Release time, no browser: markdown folder → rendered pages → citable passages.
"""
