// `report.read` on a real daemon (`mori up --daemon`): the night written to a session's work log is
// reported through the control API, checked against its schema at both ends, with the usage book's
// answer; `looked` moves the window's mark in $MORI_HOME, and the next read starts from it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ControlClient } from '../../../main/daemon-client/control-client.js';
import { appendEntry } from '../../../main/state/work-log.js';
import { client } from '../../support/daemon.js';
import { at, NIGHT } from '../../support/fixtures/away-night.js';
import { UpHarness } from '../../support/mori-up.js';

let h: UpHarness;
let c: ControlClient | null = null;
afterEach(() => {
  c?.close();
  c = null;
  h.cleanup();
});

it('reports the night through the daemon and keeps the window its own mark', { timeout: 90_000 }, async () => {
  h = new UpHarness('report-read');
  const init = h.mori('init', h.project, '--name', 'web', '--agent', 'shell', '--command', 'bash', '--backend', 'direct');
  expect(init.code, init.stderr).toBe(0);
  const base = new Date(Date.now() - 10 * 3_600_000);
  for (const e of NIGHT.web) appendEntry(path.join(h.project, '.mori', 'web'), e.lines, at(e.minutes, base));
  const up = h.mori('up', '--daemon');
  expect(up.code, up.stderr).toBe(0);
  c = (await client(h.home)).c;

  const r = await c.request('report.read', { sinceMs: base.getTime() });
  expect(r.ok, r.ok ? '' : r.message).toBe(true);
  if (!r.ok) return;
  const web = r.value.sessions.find((s) => s.name === 'web');
  expect(web?.timeline.map((i) => (i.kind === 'interruption' ? i.outcome : i.kind))).toEqual(['resumed-by-id', 'checks', 'resumed-fresh', 'checks']);
  expect(web?.usage).toEqual({ problem: 'Shell keeps no usage record Mori reads' });
  expect(r.value.sinceFrom).toBe('given');

  const looked = await c.request('report.read', { looked: true });
  expect(looked.ok && looked.value.sinceFrom).toBe('default');
  const marks = JSON.parse(readFileSync(path.join(h.home, 'last-looked.json'), 'utf8')) as Record<string, number>;
  expect(Date.now() - (marks['window'] ?? 0)).toBeLessThan(60_000);
  const next = await c.request('report.read', {});
  expect(next.ok && next.value.sinceFrom).toBe('last-looked');
  expect(next.ok && next.value.sessions.flatMap((s) => s.timeline)).toEqual([]);
});
