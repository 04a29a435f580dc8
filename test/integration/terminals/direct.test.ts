// The direct backend (node-pty) against the terminal contract, plus its orphan sweep: the owning
// process is SIGKILLed, and a new process ends everything the dead owner left running; its
// transcript keeps the program's exact bytes.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectBackend } from '../../../main/terminals/direct/direct-backend.js';
import { DirectPtySource } from '../../../main/terminals/direct/direct-pty-source.js';
import type { ManagedTerminal } from '../../../main/terminals/managed-terminal.js';
import type { Terminal } from '../../../main/terminals/terminal.js';
import { readPidRecords } from '../../../main/terminals/pid-registry.js';
import { readTranscript } from '../../../main/terminals/transcript.js';
import { pidAlive } from '../../../main/os/pid-alive.js';
import { processStartTime } from '../../../main/os/process-start.js';
import { pidsWithMarker } from '../../../main/os/process-tree.js';
import { terminalContract } from '../../support/fixtures/terminals/contract.js';
import { tempDir, testEnv, waitFor } from '../../support/fixtures/terminals/harness.js';

terminalContract('direct', async () => {
  const run = tempDir('direct-run');
  return { backend: new DirectBackend({ runDir: run.dir }), exitLatencyMs: 0, cleanup: async () => run.cleanup() };
});

describe('direct backend orphan sweep', () => {
  const tmp = tempDir('direct-orphans');
  /** What a test may leave running, with each start time: by afterAll a pid may be another test's process (pid_max is 32768 here). */
  const stray: { pid: number; start: string | null }[] = [];
  const keep = (pid: number): void => void stray.push({ pid, start: processStartTime(pid) });
  afterAll(() => {
    for (const { pid, start } of stray) if (start !== null && processStartTime(pid) === start) process.kill(pid, 'SIGKILL');
    tmp.cleanup();
  });

  it('ends what a SIGKILLed owner left running, setsid child included, and none is left', async () => {
    const id = `orphan-${process.pid}`;
    const runDir = path.join(tmp.dir, 'run');
    const owner = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../support/fixtures/terminals/direct-owner.ts', import.meta.url)), runDir, id, tmp.dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: testEnv(tmp.dir),
    });
    let ownerOut = '';
    owner.stdout.on('data', (d: Buffer) => (ownerOut += d.toString()));
    const [, root, setsidChild, child] = (await waitFor(() => /spawned (\d+) (\d+) (\d+)/.exec(ownerOut), 'the owner to start the program', 20_000)).map(Number);
    const tree = [root, setsidChild, child] as number[];
    tree.forEach(keep);
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
    keep(r.value.pid);
    expect(await new DirectBackend({ runDir }).sweepOrphans()).toEqual([]);
    expect(pidAlive(r.value.pid)).toBe(true);
    await r.value.kill();
    await r.value.dispose();
  });
});

describe('a direct pty master stays with its owner', () => {
  const tmp = tempDir('direct-private');
  const stray: { pid: number; start: string | null }[] = [];
  afterAll(() => {
    for (const { pid, start } of stray) if (start !== null && processStartTime(pid) === start) process.kill(pid, 'SIGKILL');
    tmp.cleanup();
  });
  const ptmxHeldBy = (pid: number): number =>
    readdirSync(`/proc/${pid}/fd`).filter((f) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${f}`) === '/dev/ptmx';
      } catch {
        return false;
      }
    }).length;

  it.runIf(process.platform === 'linux')('gives no later program a master to type into, and every program hangs up when the owner is SIGKILLed', async () => {
    const runDir = path.join(tmp.dir, 'run');
    const owner = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../support/fixtures/terminals/direct-owner-two.ts', import.meta.url)), runDir, tmp.dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: testEnv(tmp.dir),
    });
    let ownerOut = '';
    owner.stdout.on('data', (d: Buffer) => (ownerOut += d.toString()));
    const m = await waitFor(() => /spawned (\d+) (\d+) (\d+) masters (\d+) injected (\w+)/.exec(ownerOut), 'the owner to start both programs', 20_000);
    const [first, second, child] = [Number(m[1]), Number(m[2]), Number(m[3])];
    for (const pid of [first, second, child]) stray.push({ pid, start: processStartTime(pid) });
    // The second agent found no master of the first terminal, so nothing it wrote reached it.
    expect({ masters: Number(m[4]), injected: m[5] }).toEqual({ masters: 0, injected: 'false' });
    // Nor does a plain child process (git, a hook) hold one.
    expect(ptmxHeldBy(child)).toBe(0);
    expect(ptmxHeldBy(second)).toBe(0);

    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    // With no other holder of their masters both terminals hang up, and both programs end with it.
    await waitFor(() => !pidAlive(first) && !pidAlive(second), 'both programs to end with their hung-up terminals', 5000);
  });

  it('sweeps what an owner left when the owner is a zombie no one has reaped', async () => {
    const runDir = path.join(tmp.dir, 'run-zombie');
    const r = await new DirectBackend({ runDir }).spawn({ id: `zombie-owned-${process.pid}`, command: 'sleep', args: ['300'], cwd: tmp.dir, env: testEnv(tmp.dir), cols: 80, rows: 24, transcriptDir: null });
    if (!r.ok) throw new Error(r.message);
    const victim = r.value.pid;
    stray.push({ pid: victim, start: processStartTime(victim) });
    // A process that has exited but is not reaped: `sleep 0`'s parent execs into a sleep that never waits.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const zombie = Number((await waitFor(() => /(\d+)/.exec(out), 'the zombie pid', 5000))[1]);
    await waitFor(() => /\) Z /.test(readFileSync(`/proc/${zombie}/stat`, 'utf8')), 'the child to be a zombie', 5000);
    const zombieStart = Number(readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]);
    // The record says the zombie owns the terminal (as a SIGKILLed daemon under a slow init does).
    const file = path.join(runDir, 'direct', `zombie-owned-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ownerPid: zombie, ownerStartTime: zombieStart }));
    try {
      const swept = await new DirectBackend({ runDir }).sweepOrphans();
      expect(swept).toContain(victim);
      await waitFor(() => !pidAlive(victim), 'the zombie-owned program to end', 5000);
    } finally {
      parent.kill('SIGKILL');
      await r.value.dispose();
    }
  });
});

describe('direct backend transcript', () => {
  const tmp = tempDir('direct-bytes');
  afterAll(() => tmp.cleanup());

  it("keeps the program's own bytes: a character split across writes, invalid UTF-8 and a 2 MB flood, exactly, while views get text", async () => {
    const backend = new DirectBackend({ runDir: path.join(tmp.dir, 'run') });
    const transcriptDir = path.join(tmp.dir, 'transcript');
    // The first half of "é" and "日", a pause (so they arrive in separate reads), the rest; a lone 0xff; a flood.
    // It waits for a line (echo off) before it exits: output a program writes just before it ends can
    // be lost by the pty on a loaded machine, which is not what this test is about.
    const script = [
      "import os, sys, time, termios",
      "a = termios.tcgetattr(0); a[3] &= ~termios.ECHO; termios.tcsetattr(0, termios.TCSANOW, a)",
      "os.write(1, b'start \\xc3'); time.sleep(0.3); os.write(1, b'\\xa9 \\xe6\\x97'); time.sleep(0.3); os.write(1, b'\\xa5 bad:\\xff:end\\n')",
      "line = b'0123456789abcdef' * 8 + b'\\n'",
      "for i in range(16384): os.write(1, line)",
      "os.write(1, b'DONE\\n')",
      "sys.stdin.readline()",
    ].join('\n');
    /** Lets the program end once all its output was read. */
    const finish = async (t: Terminal, seen: () => string): Promise<void> => {
      await waitFor(() => seen().endsWith('DONE\r\n'), 'the program to print DONE', 60_000);
      t.write('\r');
      await new Promise((resolve) => t.onExit(resolve));
    };
    const r = await backend.spawn({ id: 'bytes', command: 'python3', args: ['-c', script], cwd: tmp.dir, env: testEnv(tmp.dir), cols: 80, rows: 24, transcriptDir });
    if (!r.ok) throw new Error(r.message);
    let text = '';
    r.value.onData((d) => (text += d));
    await finish(r.value, () => text);
    await (r.value as ManagedTerminal).flushTranscript();
    const { data } = readTranscript(transcriptDir, 8 * 1024 * 1024);
    // The pty turns each \n into \r\n; nothing else changes a byte.
    const expected = Buffer.concat([Buffer.from('start \xc3\xa9 \xe6\x97\xa5 bad:\xff:end\r\n', 'latin1'), Buffer.from(`${'0123456789abcdef'.repeat(8)}\r\n`.repeat(16384)), Buffer.from('DONE\r\n')]);
    expect(data.length).toBe(expected.length);
    expect(data.equals(expected)).toBe(true);
    // Views and listeners get text: the split characters whole, the invalid byte as U+FFFD.
    expect(text.startsWith('start é 日 bad:\ufffd:end\r\n')).toBe(true);
    expect(text.endsWith('DONE\r\n')).toBe(true);
    await r.value.dispose();

    // Over a small budget the same output fills whole segments and keeps the newest bytes, in order.
    const small = path.join(tmp.dir, 'transcript-small');
    const again = await backend.spawn({ id: 'bytes-small', command: 'python3', args: ['-c', script], cwd: tmp.dir, env: testEnv(tmp.dir), cols: 80, rows: 24, transcriptDir: small, transcriptMaxBytes: 1_000_000 });
    if (!again.ok) throw new Error(again.message);
    let more = '';
    again.value.onData((d) => (more += d));
    await finish(again.value, () => more);
    await (again.value as ManagedTerminal).flushTranscript();
    const segments = readdirSync(small).sort();
    expect(segments.length).toBeLessThanOrEqual(4);
    for (const f of segments.slice(0, -1)) expect(statSync(path.join(small, f)).size).toBe(250_000);
    const kept = readTranscript(small, 8 * 1024 * 1024).data;
    expect(kept.length).toBeGreaterThan(750_000);
    expect(kept.equals(expected.subarray(expected.length - kept.length))).toBe(true);
    await again.value.dispose();
  });
});

describe('a direct pty as its program ends', () => {
  it('hands on what the program printed last even when the pty was paused through its exit', async () => {
    const t = tempDir('pty-drain');
    try {
      const src = new DirectPtySource({ command: 'sh', args: ['-c', `printf '%s' "$(head -c 3000 /dev/zero | tr '\\0' x)"; printf END`], cwd: t.dir, env: testEnv(t.dir), cols: 80, rows: 24, marker: `mori-test-drain-${process.pid}` });
      let bytes = 0;
      let text = '';
      src.onBytes((b) => (bytes += b.length));
      src.onData((d) => (text += d));
      const exited = new Promise((resolve) => src.onExit(resolve));
      // Paused as a lagging view pauses it, well past the 200 ms after which node-pty drops its socket.
      src.pause();
      await new Promise((resolve) => setTimeout(resolve, 600));
      src.resume();
      await exited;
      expect(bytes).toBe(3003);
      expect(text).toBe(`${'x'.repeat(3000)}END`);
    } finally {
      t.cleanup();
    }
  });
});
