#!/usr/bin/env python3
# Draws the window's home-screen icons (DESIGN.md §13): the tray's "ok" dot, light on the window's
# accent green, as renderer/public/icon.svg and PNGs at 192 and 512 px (the sizes a web app manifest
# needs for a phone's home screen and its splash screen). The dot stays inside the middle 80 %, so a
# launcher that crops the square to a circle ("maskable") keeps it whole.
# Run from the repository root: python3 build/web-icons/make-icons.py
import struct, zlib, math, os

ACCENT = (47, 111, 79)  # --accent, light (renderer/styles.css): #2f6f4f
DOT = (246, 246, 244)  # --bg, light: #f6f6f4
# The dot's radius as a fraction of the half side: 0.42 keeps it well inside the maskable safe zone (0.8).
RADIUS = 0.42

def png(size, pixel):
    raw = b''.join(b'\x00' + b''.join(bytes(pixel(px, py)) for px in range(size)) for py in range(size))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')

def draw(size):
    # 4x4 supersampling per pixel for a smooth edge.
    def pixel(px, py):
        hits = sum(math.hypot(((px + (i + .5) / 4) / size) * 2 - 1, ((py + (j + .5) / 4) / size) * 2 - 1) <= RADIUS for i in range(4) for j in range(4))
        return tuple(round(a + (d - a) * hits / 16) for a, d in zip(ACCENT, DOT))
    return png(size, pixel)

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'renderer', 'public')
for size in (192, 512):
    open(os.path.join(out, f'icon-{size}.png'), 'wb').write(draw(size))
hexc = lambda c: '#%02x%02x%02x' % c
open(os.path.join(out, 'icon.svg'), 'w').write(
    f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="{hexc(ACCENT)}"/>'
    f'<circle cx="50" cy="50" r="{RADIUS * 50:g}" fill="{hexc(DOT)}"/></svg>\n')
