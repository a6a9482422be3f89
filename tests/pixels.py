"""Pixel counts of screenshots, done in the browser (no image library needed): shared by tests and bench."""
from __future__ import annotations

import base64

# The RGBA bytes of a base64 PNG, decoded by the page itself.
_DECODE = """const pixels = async src => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + src;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width; c.height = img.height;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, c.width, c.height).data;
    };"""

_UNLIKE = """async ([png, rgb]) => {
    %s
    const d = await pixels(png);
    let n = 0;
    for (let i = 0; i < d.length; i += 4)
        if (Math.abs(d[i] - rgb[0]) + Math.abs(d[i + 1] - rgb[1]) + Math.abs(d[i + 2] - rgb[2]) > 12) n++;
    return [n, d.length / 4];
}""" % _DECODE

_DIFFERENT = """async ([a, b]) => {
    %s
    const [x, y] = [await pixels(a), await pixels(b)];
    let n = 0;
    for (let i = 0; i < x.length; i += 4)
        if (Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]) > 24) n++;
    return n;
}""" % _DECODE


def _b64(png: bytes) -> str:
    return base64.b64encode(png).decode()


def unlike(page, png: bytes, rgb: tuple[int, int, int]) -> tuple[int, int]:
    """(pixels of `png` that differ from the colour `rgb`, all pixels)."""
    differing, total = page.evaluate(_UNLIKE, [_b64(png), list(rgb)])
    return differing, total


def different(page, a: bytes, b: bytes) -> int:
    """How many pixels of two same-sized screenshots differ visibly."""
    return page.evaluate(_DIFFERENT, [_b64(a), _b64(b)])
