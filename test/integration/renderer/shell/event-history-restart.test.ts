// The daemon's history across its own restart (DESIGN.md §12, "History at start"): a window opened
// after the daemon was stopped and started again still reads what happened before (`events.recent`),
// from the daemon log, with the events' own times; a line in that log that is not an event (a crash
// cut it, something wrote into it) is skipped, never shown and never fatal.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { DaemonEvent } from '../../../../common/ipc.js';
import { DAEMON_LOG, logDir } from '../../../../main/daemon/daemon-log.js';
import { call, client } from '../../../support/daemon.js';
import { UpHarness } from '../../../support/mori-up.js';
import { untilValue } from '../../../../testkit/until.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

type Recent = { events: { seq: number; event: DaemonEvent }[] };

async function recent(home: string, types: string[]): Promise<Recent['events']> {
  const { c } = await client(home);
  try {
    return ((await call(c, 'events.recent', { limit: 100, types })) as unknown as Recent).events;
  } finally {
    c.close();
  }
}

it('reads what happened before a restart of the daemon from its log, skipping lines that are no event', async () => {
  h = new UpHarness('event-history-restart');
  h.init('hist', 'direct');
  expect(h.mori('up', '--daemon').code).toBe(0);
  const [first] = await untilValue('the first run\'s start of the session', () => recent(h!.home, ['session.started']), (e) => e.length === 1, 30_000);
  const before = first!.event;
  expect(h.mori('down', '--stop-agents').code).toBe(0);
  appendFileSync(path.join(logDir(h.home), DAEMON_LOG), '{"type":"session.started","at":"not a time"}\nnot json at all\n{"cut": \n');

  expect(h.mori('up', '--daemon').code).toBe(0);
  const after = await untilValue('both runs\' readiness', () => recent(h!.home, ['session.started', 'supervisor.ready']), (e) => e.filter((x) => x.event.type === 'supervisor.ready').length === 2, 30_000);
  expect(after.filter((e) => e.event.type === 'session.started').map((e) => e.event)).toEqual([before]);
  expect(after.map((e) => e.seq)).toEqual([...after.map((e) => e.seq)].sort((a, b) => a - b));
  expect(after.every((e) => typeof (e.event as { at: unknown }).at === 'number')).toBe(true);
}, 90_000);
