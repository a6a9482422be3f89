"""Writing a file whole or not at all: caches and indexes that another process may read meanwhile."""
from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import BinaryIO, Callable


def write_atomic(file: Path, data: bytes | Callable[[BinaryIO], None]) -> None:
    """Write `data` (bytes, or a function writing to the open file) beside `file`, then rename it into place.

    The temporary name is unique per process and thread, so two releases sharing a cache never
    write into each other's half-written file; a reader sees the old file or the new one.
    """
    file.parent.mkdir(parents=True, exist_ok=True)
    temporary = file.with_name(f".{file.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temporary, "wb") as handle:
            data(handle) if callable(data) else handle.write(data)
        os.replace(temporary, file)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def unused_name(file: Path) -> Path:
    """`file`, or when it exists the first free `stem-2.ext`, `stem-3.ext`…: a second run on the same
    day must not overwrite the first one's dated results."""
    candidate, number = file, 1
    while candidate.exists():
        number += 1
        candidate = file.with_name(f"{file.stem}-{number}{file.suffix}")
    return candidate
