// `transcript.read` pages a session's earlier terminal output backwards: pages of at most the size
// asked for, each ending where the previous one began, together the whole transcript in order.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ControlClient } from '../../../main/daemon-client/control-client.js';
import { call, client } from '../../support/daemon.js';
import { UpHarness } from '../../support/mori-up.js';

let h: UpHarness;
let c: ControlClient;
/** Lines the agent prints: a few hundred KB, several pages. */
const LINES = 30_000;

beforeAll(async () => {
  h = new UpHarness('transcript');
  const script = path.join(h.tmp, 'print.sh');
  writeFileSync(script, `seq 1 ${LINES}; echo all-printed; exec cat\n`);
  const init = h.mori('init', h.project, '--name', 'printer', '--agent', 'shell', '--command', `sh ${script}`, '--backend', 'direct');
  expect(init.code, init.stderr).toBe(0);
  const up = h.mori('up', '--daemon');
  expect(up.code, up.stderr).toBe(0);
  ({ c } = await client(h.home));
}, 60_000);
afterAll(() => {
  c?.close();
  h.cleanup();
});

it('pages the transcript backwards, each page ending where the one after it began', async () => {
  const page = (beforeEnd: number) => call(c, 'transcript.read', { session: 'printer', beforeEnd, maxBytes: 64 * 1024 }) as Promise<{ data: string; bytes: number; totalBytes: number }>;
  let newest = await page(0);
  const deadline = Date.now() + 25_000;
  while (!newest.data.includes('all-printed') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    newest = await page(0);
  }
  expect(newest.data).toContain('all-printed');
  const pages: string[] = [];
  let read = 0;
  while (read < newest.totalBytes) {
    const p = await page(read);
    expect(p.bytes).toBeGreaterThan(0);
    expect(p.bytes).toBeLessThanOrEqual(64 * 1024);
    pages.unshift(p.data);
    read += p.bytes;
  }
  expect(pages.length).toBeGreaterThan(2);
  const numbers = pages.join('').split(/\r?\n/).filter((l) => /^\d+$/.test(l)).map(Number);
  expect(numbers).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
});
