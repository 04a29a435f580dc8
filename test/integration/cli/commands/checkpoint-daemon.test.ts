// `mori checkpoint S` while a daemon runs (a real `mori up --daemon`, real CLI processes, a real git
// project): the checkpoint is taken through the daemon, which announces it (`checkpoint.written`) to
// its subscribers — the window's Changes tab and `mori ls` learn of it — and the CLI answers as it does
// without a daemon.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ControlClient } from '../../../../main/daemon-client/control-client.js';
import { client, waitEvent } from '../../../support/daemon.js';
import { UpHarness } from '../../../support/mori-up.js';

let h: UpHarness;
let c: ControlClient | null = null;
afterEach(() => {
  c?.close();
  c = null;
  h.cleanup();
});

it('is taken through the running daemon, which announces checkpoint.written', { timeout: 90_000 }, async () => {
  h = new UpHarness('checkpoint-daemon');
  const init = h.mori('init', h.project, '--name', 'cp', '--agent', 'shell', '--command', 'bash', '--backend', 'direct');
  expect(init.code, init.stderr).toBe(0);
  const up = h.mori('up', '--daemon');
  expect(up.code, up.stderr).toBe(0);
  const subscribed = await client(h.home, true);
  c = subscribed.c;

  writeFileSync(path.join(h.project, 'new.txt'), 'new\n');
  const r = h.mori('checkpoint', 'cp', '-m', 'by hand', '--json');
  expect(r.code, r.stderr).toBe(0);
  const answer = JSON.parse(r.stdout) as { ok: boolean; created: boolean; id: string; seq: number; changedFiles: string[] };
  expect(answer).toMatchObject({ ok: true, created: true, changedFiles: ['new.txt'] });
  expect(answer.id).toMatch(/^[0-9a-f]{7}$/);
  await waitEvent(subscribed.events, 'checkpoint.written for cp', (e) => e.type === 'checkpoint.written' && e.name === 'cp' && e.changed && e.changedFiles === 1);

  // Nothing new: said so, and announced as unchanged.
  const again = h.mori('checkpoint', 'cp');
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toMatch(/^Unchanged since checkpoint [0-9a-f]{7} \(#\d+\)/);
  await waitEvent(subscribed.events, 'an unchanged checkpoint.written', (e) => e.type === 'checkpoint.written' && e.name === 'cp' && !e.changed);
});
