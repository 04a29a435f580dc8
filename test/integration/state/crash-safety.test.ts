// Crash safety (DESIGN.md §3): a writer SIGKILLed at random moments, hundreds of times, never
// leaves an invalid session.json, a torn work-log entry, or an entry lost or doubled by compaction.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../main/state/state-dir.js';
import { readSessionFile } from '../../../main/state/session-file.js';
import { parseEntries, settleWorkLog } from '../../../main/state/work-log.js';
import { tempDir } from '../../../testkit/mori-cli.js';
import { bundleFixtures } from '../../support/bundled-fixtures.js';
import { WORK_LOG, WORK_LOG_ARCHIVE } from '../../../common/state-files.js';

/** The writer, bundled (test/support/bundled-fixtures.ts): this test starts one per kill. */
let writer = '';
beforeAll(async () => {
  writer = (await bundleFixtures(['state-writer.mjs']))['state-writer.mjs']!;
}, 60_000);
/**
 * Enough random kill points (each 0-40 ms into a writer making several full write cycles) to hit
 * every step of a write and of a compaction many times over, within about a minute on a busy runner.
 */
const KILLS = 120;

function runAndKill(stateDir: string, budget: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, stateDir, String(budget)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.once('data', () => {
      // 0-40 ms of writing: several full write cycles, killed at an arbitrary point of one.
      setTimeout(() => child.kill('SIGKILL'), Math.random() * 40);
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer exited ${code}: ${err}`))));
  });
}

function readEntries(file: string) {
  try {
    return parseEntries(readFileSync(file));
  } catch {
    return [];
  }
}

describe('crash safety', () => {
  it(`every file is valid after ${KILLS} SIGKILLs mid-write, and no entry is torn or lost`, async () => {
    const home = tempDir('crash-home');
    const project = tempDir('crash-proj');
    const created = await createSession({ projectDir: project, name: 'w', profile: 'claude', backend: 'direct', home });
    expect(created.ok).toBe(true);
    const stateDir = created.ok ? created.value.stateDir : '';
    // A small log budget so compaction runs (and gets killed) many times as well.
    const budget = 8 * 1024;
    for (let i = 0; i < KILLS; i++) {
      await runAndKill(stateDir, budget);
      const s = readSessionFile(stateDir);
      expect(s.ok, !s.ok ? s.message : '').toBe(true);
    }
    // A compaction killed mid-way is settled by the next one to touch the log; be that one.
    expect(settleWorkLog(stateDir)).toBe(true);
    const entries = [...readEntries(path.join(stateDir, WORK_LOG_ARCHIVE)), ...readEntries(path.join(stateDir, WORK_LOG))];
    const ticks = entries.filter((e) => e.lines[0]?.startsWith('tick '));
    expect(ticks.length).toBeGreaterThan(KILLS / 4);
    for (const e of ticks) expect(e.lines).toEqual([e.lines[0], 'second line of the entry']);
    // Every tick of every writer is present exactly once, in order: a compaction killed at any point
    // neither lost an entry nor left one in both the archive and the log.
    const byPid = new Map<string, number[]>();
    for (const e of ticks) {
      const [pid, n] = (e.lines[0] ?? '').slice(5).split('-');
      byPid.set(pid ?? '', [...(byPid.get(pid ?? '') ?? []), Number(n)]);
    }
    for (const [pid, ns] of byPid) expect(ns, `writer ${pid}`).toEqual(ns.map((_, i) => i));
  }, 300_000);
});
