"""A four-language site small enough to release in seconds, shared by the retrieval tests.

The Japanese and Korean pages name no language: their script tells it (build/languages.py)."""
from __future__ import annotations

from pathlib import Path

PAGES = {
    "index.md": """---
title: Garden notes
slug: index
language: en
---

## Watering

Tomatoes want deep watering twice a week in the early morning. Shallow daily sprinkling keeps their roots near the surface, where they dry out.

Cucumbers are thirstier and wilt on hot afternoons. A layer of straw mulch keeps the soil moist for days.

## Bees

The hive stands at the far end of the orchard, facing south-east. Bees fly on warm days above twelve degrees and rest when it rains.

- Lavender and borage bring the most bees.
- The honey harvest happens once, in late August.

## Tools

The old spade has an ash handle that was replaced in spring. Secateurs are sharpened every month with a fine whetstone.
""",
    "ru.md": """---
title: Заметки о саде
slug: ru
language: ru
---

## Яблони

Яблони обрезают в конце зимы, пока почки ещё спят. Старые ветки убирают, чтобы крона получала больше света.

## Урожай

Яблоки собирают в сентябре и хранят в прохладном подвале. Варенье из слив варят в больших медных тазах.
""",
    "ja.md": """---
title: 庭のメモ
slug: ja
---

## 桜

庭の桜は四月の初めに満開になります。花びらが散ると、池の水面が薄いピンク色に変わります。

## 竹

竹は春に驚くほど速く伸びます。竹の子は掘ってすぐにゆでると甘くなります。
""",
    "ko.md": """---
title: 정원 메모
slug: ko
---

## 김장

김장은 십일월 말에 온 가족이 함께 합니다. 배추는 소금물에 하룻밤 절여 둡니다.

## 고추

고추는 여름 햇볕에 말려서 가루로 만듭니다.
""",
}


def release(run_trigsight, content: Path, out: Path, cache: Path, env: dict | None = None):
    """Release `content` through the real CLI into `out` with its own vector cache."""
    return run_trigsight("release", "--content", str(content), "--out", str(out),
                         env={"TRIGSIGHT_CACHE_DIR": str(cache), "OPENAI_API_KEY": "", **(env or {})})


def write(folder: Path, pages: dict[str, str] = PAGES) -> Path:
    from conftest import write_files

    return write_files(folder, pages)


_released: dict = {}


def shared_release(tmp_path_factory, run_trigsight):
    """The garden site released once per test session (each release runs every gate, so it
    is slow); returns (root, content folder, release folder, completed process)."""
    if "garden" not in _released:
        root = tmp_path_factory.mktemp("garden")
        content = write(root / "content")
        result = release(run_trigsight, content, root / "release", root / "cache")
        assert result.returncode == 0, result.stderr
        _released["garden"] = (root, content, root / "release", result)
    return _released["garden"]
