// The window's screenshots in docs/screenshots/ are what README's table says they are: each one linked
// from README in both themes, each link to a file that exists, every one at the size README states
// (1440×900, the size the end-to-end tests take them at: test/support/window-harness.ts; the phone's,
// named phone-*, 390×844). The tests write
// them to out/e2e-screenshots/; scripts/docs-screenshots.mjs copies the ones README links.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

/** The size the end-to-end tests take them at (VIEWPORT in test/support/window-harness.ts, which loads a browser and Vite: not imported here). */
const VIEWPORT = { width: 1440, height: 900 };
/** The phone's (PHONE_VIEWPORT there), for the screenshots named phone-*. */
const PHONE_VIEWPORT = { width: 390, height: 844 };
const sizeOf = (f: string): { width: number; height: number } => (f.startsWith('phone-') ? PHONE_VIEWPORT : VIEWPORT);
const DIR = path.join(REPO, 'docs', 'screenshots');
const README = readFileSync(path.join(REPO, 'README.md'), 'utf8');
const linked = [...README.matchAll(/\(docs\/screenshots\/([\w.-]+\.png)\)/g)].map((m) => m[1] ?? '');

/** A PNG's width and height, from its IHDR chunk (bytes 16–23, big-endian). */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe("README's screenshots", () => {
  it('says the size the tests take them at', () => {
    expect(README).toContain(`Screenshots at ${VIEWPORT.width}×${VIEWPORT.height} in both themes`);
    expect(README).toContain(`Screenshots at ${PHONE_VIEWPORT.width}×${PHONE_VIEWPORT.height} with touch`);
  });

  it('links every file in docs/screenshots, each view light and dark, and every link is a file', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.png'));
    expect(files.filter((f) => !linked.includes(f))).toEqual([]);
    expect(linked.filter((f) => !files.includes(f))).toEqual([]);
    const views = new Set(linked.map((f) => f.replace(/-(light|dark)\.png$/, '')));
    const unpaired = [...views].filter((v) => !linked.includes(`${v}-light.png`) || !linked.includes(`${v}-dark.png`));
    expect(unpaired).toEqual([]);
  });

  it(`are ${VIEWPORT.width}×${VIEWPORT.height} (a phone's ${PHONE_VIEWPORT.width}×${PHONE_VIEWPORT.height}), as README says`, () => {
    const wrong = readdirSync(DIR)
      .filter((f) => f.endsWith('.png'))
      .map((f) => ({ f, ...pngSize(path.join(DIR, f)) }))
      .filter((s) => s.width !== sizeOf(s.f).width || s.height !== sizeOf(s.f).height)
      .map((s) => `${s.f}: ${s.width}×${s.height}`);
    expect(wrong).toEqual([]);
  });
});
