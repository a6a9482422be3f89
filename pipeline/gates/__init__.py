"""Release time: the gates a build must pass before it is published (source, browser, payload).
"""
