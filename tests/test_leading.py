"""A question asking why, or what holds by default, is led by a passage that says so."""
from __future__ import annotations

import pytest

from indexed_site import indexed_site, quoted_texts

REASON = "The fusion uses the two rankings' ranks only, since keyword scores and cosines are on unrelated scales."
FUSION_PAGES = {
    "fusion.md": "# Fusion\n\nThe search fuses the keyword ranking and the vector ranking into one list of results. "
                 "Each ranking lists the chunks of the pages, best first.\n\n" + REASON + "\n\n"
                 "The fused list keeps the first ten results of the two rankings.\n",
    "timers.md": "# Timers\n\nA timer calls its callback after a delay.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return indexed_site(tmp_path_factory.mktemp("leading"), FUSION_PAGES)


@pytest.mark.parametrize("question", [
    "検索が二つのランキングを順位だけで融合するのはなぜですか？",
    "検索が二つのランキングを順位だけで融合する理由は何ですか？",
])
def test_a_passage_giving_a_reason_leads_a_why_question(site, question):
    assert quoted_texts(question, *site)[0] == REASON


def test_a_question_that_asks_no_reason_is_not_led_by_one(site):
    quoted = quoted_texts("融合したリストには結果がいくつ残りますか？", *site)
    assert quoted and quoted[0] != REASON
