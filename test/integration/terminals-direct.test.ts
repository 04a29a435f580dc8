// The direct backend (node-pty) against the terminal contract, plus its orphan sweep: the owning
// process is SIGKILLed, and a new process ends everything the dead owner left running.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectBackend } from '../../main/terminals/direct/direct-backend.js';
import { readPidRecords } from '../../main/terminals/pid-registry.js';
import { pidAlive } from '../../main/os/pid-alive.js';
import { pidsWithMarker } from '../../main/os/process-tree.js';
import { terminalContract } from '../fixtures/terminals/contract.js';
import { tempDir, testEnv, waitFor } from '../fixtures/terminals/harness.js';

terminalContract('direct', async () => {
  const run = tempDir('direct-run');
  return { backend: new DirectBackend({ runDir: run.dir }), exitLatencyMs: 0, cleanup: async () => run.cleanup() };
});

describe('direct backend orphan sweep', () => {
  const tmp = tempDir('direct-orphans');
  const stray: number[] = [];
  afterAll(() => {
    for (const pid of stray) if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
    tmp.cleanup();
  });

  it('ends what a SIGKILLed owner left running, setsid child included, and none is left', async () => {
    const id = `orphan-${process.pid}`;
    const runDir = path.join(tmp.dir, 'run');
    const owner = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../fixtures/terminals/direct-owner.ts', import.meta.url)), runDir, id, tmp.dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: testEnv(tmp.dir),
    });
    let ownerOut = '';
    owner.stdout.on('data', (d: Buffer) => (ownerOut += d.toString()));
    const [, root, setsidChild, child] = (await waitFor(() => /spawned (\d+) (\d+) (\d+)/.exec(ownerOut), 'the owner to start the program', 20_000)).map(Number);
    const tree = [root, setsidChild, child] as number[];
    stray.push(...tree);
    expect(readPidRecords(runDir).map((r) => r.id)).toEqual([id]);

    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    // The pty is gone with its owner, but the tree ignores SIGHUP: these are real orphans.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(tree.every(pidAlive)).toBe(true);

    const swept = await new DirectBackend({ runDir }).sweepOrphans();
    expect(swept).toEqual(expect.arrayContaining(tree));
    await waitFor(() => !tree.some(pidAlive) && pidsWithMarker(`direct:${id}`).length === 0, 'no process of the orphaned tree left', 5000);
    expect(readPidRecords(runDir)).toEqual([]);
    expect(existsSync(path.join(runDir, 'direct')) ? readdirSync(path.join(runDir, 'direct')) : []).toEqual([]);
  });

  it('leaves the terminals of a live owner alone', async () => {
    const runDir = path.join(tmp.dir, 'run-live');
    const backend = new DirectBackend({ runDir });
    const r = await backend.spawn({ id: `live-${process.pid}`, command: 'sleep', args: ['300'], cwd: tmp.dir, env: testEnv(tmp.dir), cols: 80, rows: 24, transcriptDir: null });
    if (!r.ok) throw new Error(r.message);
    stray.push(r.value.pid);
    expect(await new DirectBackend({ runDir }).sweepOrphans()).toEqual([]);
    expect(pidAlive(r.value.pid)).toBe(true);
    await r.value.kill();
    await r.value.dispose();
  });
});
