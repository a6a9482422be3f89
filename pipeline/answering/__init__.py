"""Request time: chat answers and claim checks, bound to the published allowlist.
"""
