#!/usr/bin/env python3
# Draws the tray icons (DESIGN.md §13): one per state, 16 px and 32 px (@2x). `<state>Template.png`
# is black on transparent so macOS tints it for the menu bar; `<state>.png` is coloured for the
# Windows and Linux trays. Shapes differ too, not only colours: a dot (ok), a ring (working), a
# ring with a dot (needs you), a cross (failing), a hollow square (offline, the daemon not answering).
# Run from the repository root: python3 build/tray/make-icons.py
import struct, zlib, math, os

COLOURS = {'ok': (46, 160, 67), 'working': (31, 111, 235), 'needs-you': (210, 153, 34), 'failing': (207, 34, 46), 'offline': (110, 118, 129)}

def inside(state, x, y):
    d = math.hypot(x, y)
    if state == 'ok': return d <= 0.55
    if state == 'working': return 0.45 <= d <= 0.8
    if state == 'needs-you': return 0.55 <= d <= 0.85 or d <= 0.25
    if state == 'failing': return (abs(x - y) < 0.22 or abs(x + y) < 0.22) and d <= 0.9
    if state == 'offline': return max(abs(x), abs(y)) <= 0.75 and max(abs(x), abs(y)) >= 0.5
    return False

def png(size, pixel):
    raw = b''.join(b'\x00' + b''.join(bytes(pixel(px, py)) for px in range(size)) for py in range(size))
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 6, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')

def draw(state, size, rgb):
    # 4x4 supersampling per pixel for smooth edges.
    def pixel(px, py):
        hits = sum(inside(state, ((px + (i + .5) / 4) / size) * 2 - 1, ((py + (j + .5) / 4) / size) * 2 - 1) for i in range(4) for j in range(4))
        return (*rgb, round(255 * hits / 16))
    return png(size, pixel)

out = os.path.dirname(os.path.abspath(__file__))
for state, rgb in COLOURS.items():
    for size, suffix in ((16, ''), (32, '@2x')):
        open(os.path.join(out, f'{state}{suffix}.png'), 'wb').write(draw(state, size, rgb))
        open(os.path.join(out, f'{state}Template{suffix}.png'), 'wb').write(draw(state, size, (0, 0, 0)))
