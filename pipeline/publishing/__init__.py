"""The release folder: written atomically at release time, read-only at request time.
"""
