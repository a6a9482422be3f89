"""The retrieval index: built at release time (index), queried at request time (search).
"""
