"""Where a list begins and what it holds, on a published page (pure).

A sentence that leads into a list ("The main differences between npm install and npm ci are:")
says nothing alone, and a list item too short to stand alone ("yarn.lock") says little without
its lead-in: the offline answer quotes them together (`offline.with_lists`). These read the
page's passage order to find one from the other.
"""
from __future__ import annotations

from .relevance import leads_in


def list_after(lead, release, items: int) -> list:
    """The first `items` items of the list `lead` introduces: none unless it ends in a colon and a
    list item of another block follows it with nothing between (code between them is what it
    introduces); the items are the passages that follow in the same way while they are list
    items, those of a nested list included."""
    if not leads_in(lead.text):
        return []
    text, blocks, before, found = release.page(lead.page).text, set(), lead, []
    while (item := release.passage_at(lead.page, before.order + 1)) is not None:
        blocks.add(item.block)
        if item.kind != "li" or item.block == lead.block or len(blocks) > items or text[before.end:item.start].strip():
            break
        found.append(item)
        before = item
    return found


def lead_in_of(item, release):
    """The lead-in of the list that list item `item` belongs to, or None."""
    if item.kind != "li":
        return None
    text, after = release.page(item.page).text, item
    while (before := release.passage_at(item.page, after.order - 1)) is not None:
        if text[before.end:after.start].strip():
            return None
        if before.kind != "li":
            return before if leads_in(before.text) else None
        after = before
    return None
