// A wake resumes every session at once (daemon/interruption-orchestrator.ts): each verifies with the
// round's one signal, joined to the process-wide cancel. However many verify together, each of those
// two signals holds one listener and Node never warns of a leak (MaxListenersExceededWarning).
import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withShutdown } from '../../../main/checks/in-flight.js';
import { verifySession } from '../../../main/checks/verify-session.js';
import { initShellSession } from '../../../testkit/mori-cli.js';

/** Over Node's 10 listeners a signal may hold before it warns: a wake with a dozen sessions. */
const SESSIONS = 12;
let root: string;
let home: string;
let dirs: string[];

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-verify-many-'));
  home = path.join(root, 'home');
  dirs = Array.from({ length: SESSIONS }, (_, i) => initShellSession(root, home, `s${i}`));
  // A local check each (no approval needed), so every verification runs a probe with the signal.
  for (const d of dirs) writeFileSync(path.join(d, 'environment.md'), '# Environment\n\n## Running Services\n- Nothing: localhost:1\n');
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('verifications of every session at once with one signal hold one listener on it and none warns', async () => {
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => void warnings.push(w);
  process.on('warning', onWarning);
  try {
    const round = new AbortController();
    const processWide = withShutdown().signal;
    const running = dirs.map((d) => verifySession(d, { home, restartServices: true, signal: round.signal }));
    expect(getEventListeners(round.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(processWide, 'abort').length).toBeLessThanOrEqual(1);
    const done = await Promise.all(running);
    expect(done.every((v) => v.ok && v.value.results.length === 1)).toBe(true);
    expect(getEventListeners(round.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(processWide, 'abort')).toHaveLength(0);
    // Warnings come on the next tick.
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});
