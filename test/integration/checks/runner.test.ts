// The check runner against real things: loopback TCP and HTTP servers started and stopped here,
// real commands in their own process groups (hanging, cancelled, printing 10 MB), real pids.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckKind, CheckSpec } from '../../../common/checks.js';
import { pidAlive } from '../../../main/os/pid-alive.js';
import { runCommand } from '../../../main/checks/run-command.js';
import { PROCESS_COMMAND_CONCURRENCY, runChecks, type RunContext } from '../../../main/checks/run-checks.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mori-checks-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = (kind: CheckKind, target: string, timeoutMs = 2000): CheckSpec => ({
  id: `${kind}:${target}`,
  kind,
  target,
  label: null,
  timeoutMs,
  source: { file: 'environment.md', line: 1 },
  service: null,
});
const ctx = (over: Partial<RunContext> = {}): RunContext => ({ projectDir: dir, trusted: true, pidBoots: {}, bootId: 'boot-now', graceMs: 300, ...over });
const one = async (c: CheckSpec, over: Partial<RunContext> = {}) => (await runChecks([c], ctx(over)))[0]!;

async function waitFor(cond: () => boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}
const close = (server: net.Server) => new Promise<void>((r) => server.close(() => r()));

describe('tcp', () => {
  it('passes while a loopback server listens and fails once it is stopped', async () => {
    const server = net.createServer((s) => s.destroy());
    const port = await listen(server);
    expect(await one(spec('tcp', `localhost:${port}`))).toMatchObject({ status: 'pass', kind: 'tcp' });
    expect((await one(spec('tcp', `127.0.0.1:${port}`))).status).toBe('pass');
    await close(server);
    const r = await one(spec('tcp', `localhost:${port}`));
    expect(r.status).toBe('fail');
    expect(r.detail).toMatch(/ECONNREFUSED/);
  });
});

describe('http', () => {
  let server: http.Server;
  let port: number;
  const hung: http.ServerResponse[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/ok') res.writeHead(200).end('ok');
      else if (req.url === '/bad') res.writeHead(500).end('no');
      else if (req.url === '/redirect') res.writeHead(302, { location: '/ok' }).end();
      else if (req.url === '/redirect-bad') res.writeHead(301, { location: `/bad` }).end();
      else if (req.url === '/offhost') res.writeHead(302, { location: 'http://example.invalid/login' }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/hang') hung.push(res);
      else res.writeHead(404).end();
    });
    port = await listen(server);
  });
  afterAll(() => {
    for (const r of hung) r.destroy();
    server.closeAllConnections();
  });

  it('passes below 400, fails from 400, follows same-host redirects only', async () => {
    const url = (p: string) => `http://localhost:${port}${p}`;
    expect(await one(spec('http', url('/ok')))).toMatchObject({ status: 'pass', detail: 'HTTP 200' });
    expect(await one(spec('http', url('/bad')))).toMatchObject({ status: 'fail', detail: expect.stringMatching(/HTTP 500/) });
    expect(await one(spec('http', url('/missing')))).toMatchObject({ status: 'fail' });
    expect(await one(spec('http', url('/redirect')))).toMatchObject({ status: 'pass', detail: 'HTTP 200' });
    expect(await one(spec('http', url('/redirect-bad')))).toMatchObject({ status: 'fail' });
    expect(await one(spec('http', url('/offhost')))).toMatchObject({ status: 'pass', detail: expect.stringMatching(/not followed/) });
    expect(await one(spec('http', url('/loop')))).toMatchObject({ status: 'fail', detail: expect.stringMatching(/redirects/) });
  });

  it('times out on a server that never answers', async () => {
    const r = await one(spec('http', `http://127.0.0.1:${port}/hang`, 300));
    expect(r.status).toBe('timeout');
    expect(r.durationMs).toBeLessThan(3000);
  });

  it('fails once the server is stopped mid-test', async () => {
    for (const r of hung.splice(0)) r.destroy();
    server.closeAllConnections();
    await close(server);
    expect((await one(spec('http', `http://localhost:${port}/ok`))).status).toBe('fail');
  });
});

describe('file, dns, pid', () => {
  it('checks files relative to the project dir', async () => {
    writeFileSync(path.join(dir, 'present.py'), 'x');
    expect((await one(spec('file', 'present.py'))).status).toBe('pass');
    expect(await one(spec('file', 'absent.py'))).toMatchObject({ status: 'fail', detail: expect.stringMatching(/no such file/) });
  });

  it('resolves localhost and fails on a name that cannot exist', async () => {
    expect((await one(spec('dns', 'localhost'))).status).toBe('pass');
    expect((await one(spec('dns', 'no-such-host.invalid'))).status).toBe('fail');
  });

  it('fails a live pid recorded in another boot (a reboot reused the number)', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const pid = String(child.pid);
      const seen = { bootId: 'boot-before-reboot', seenAt: new Date().toISOString() };
      const other = await one(spec('pid', pid), { pidBoots: { [pid]: seen }, bootId: 'boot-after-reboot' });
      expect(other.status).toBe('fail');
      expect(other.detail).toMatch(/another boot/);
      const same = await one(spec('pid', pid), { pidBoots: { [pid]: { ...seen, bootId: 'boot-after-reboot' } }, bootId: 'boot-after-reboot' });
      expect(same.status).toBe('pass');
    } finally {
      child.kill('SIGKILL');
    }
    expect(await waitFor(() => !pidAlive(child.pid!))).toBe(true);
    expect((await one(spec('pid', String(child.pid)))).status).toBe('fail');
  });
});

describe('commands', () => {
  it('passes on exit 0, fails otherwise, keeping the last 40 lines', async () => {
    const ok = await one(spec('command', 'echo hello; exit 0'));
    expect(ok).toMatchObject({ status: 'pass', outputTail: 'hello' });
    const bad = await one(spec('command', 'for i in $(seq 1 100); do echo line $i; done; echo oops >&2; exit 3'));
    expect(bad).toMatchObject({ status: 'fail', detail: 'exit code 3' });
    const lines = (bad.outputTail ?? '').split('\n');
    expect(lines).toHaveLength(40);
    expect(lines.at(-1)).toBe('oops');
    expect(lines[0]).toBe('line 62');
  });

  it('is not run without trust: a marker it would create stays absent', async () => {
    const marker = path.join(dir, 'untrusted-marker');
    const r = await one(spec('command', `touch ${marker}`), { trusted: false });
    expect(r.status).toBe('untrusted');
    expect(existsSync(marker)).toBe(false);
    expect((await one(spec('command', `touch ${marker}`))).status).toBe('pass');
    expect(existsSync(marker)).toBe(true);
  });

  it('kills the whole process group of a hanging command on timeout, SIGTERM-deaf members included', async () => {
    const pids = path.join(dir, 'hang-pids');
    const script = `echo $$ > ${pids}; sleep 300 & echo $! >> ${pids}; (trap '' TERM; sleep 300) & echo $! >> ${pids}; wait`;
    const started = Date.now();
    const r = await runCommand(script, { cwd: dir, timeoutMs: 500, graceMs: 300 });
    expect(r.status).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(8000);
    const all = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    expect(all).toHaveLength(3);
    // No orphan left: every member is gone (zombies awaiting a reaper count as gone).
    expect(await waitFor(() => all.every((p) => !pidAlive(p)))).toBe(true);
  });

  it('kills what a successful command left running in its group', async () => {
    const pidFile = path.join(dir, 'left-pid');
    const r = await runCommand(`sleep 300 & echo $! > ${pidFile}; echo done`, { cwd: dir, timeoutMs: 5000, graceMs: 300 });
    expect(r.status).toBe('pass');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitFor(() => !pidAlive(pid))).toBe(true);
  });

  it('cancels: the signal kills the running group and skips what has not started', async () => {
    const abort = new AbortController();
    const pids = path.join(dir, 'cancel-pids');
    const checks = [spec('command', `echo $$ > ${pids}; sleep 300`, 60_000), spec('command', 'sleep 300', 60_000)];
    setTimeout(() => abort.abort(), 500);
    const started = Date.now();
    const results = await runChecks(checks, ctx({ signal: abort.signal, commandConcurrency: 1 }));
    expect(results.map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(results[0]?.detail).toMatch(/cancelled; its process group was killed/);
    expect(results[1]?.detail).toMatch(/cancelled before it started/);
    expect(Date.now() - started).toBeLessThan(8000);
    const leader = Number(readFileSync(pids, 'utf8'));
    expect(await waitFor(() => !pidAlive(leader))).toBe(true);
  });

  it('bounds how many commands run at once', async () => {
    const log = path.join(dir, 'concurrency-log');
    writeFileSync(log, '');
    const cmd = (i: number) => spec('command', `echo start >> ${log}; sleep 0.3; echo end >> ${log} # ${i}`);
    await runChecks([cmd(1), cmd(2), cmd(3), cmd(4)], ctx({ commandConcurrency: 2 }));
    let running = 0;
    let peak = 0;
    for (const l of readFileSync(log, 'utf8').trim().split('\n')) {
      running += l === 'start' ? 1 : -1;
      peak = Math.max(peak, running);
    }
    expect(peak).toBe(2);
  });

  it('bounds the commands of every verification in the process together, as a wake runs them all at once', async () => {
    const log = path.join(dir, 'process-concurrency-log');
    writeFileSync(log, '');
    const cmd = (i: number) => spec('command', `echo start >> ${log}; sleep 0.3; echo end >> ${log} # ${i}`);
    // Three sessions' verifications side by side, each allowed its own two: six would run without the shared slots.
    await Promise.all([0, 1, 2].map((v) => runChecks([cmd(v * 2), cmd(v * 2 + 1)], ctx())));
    let running = 0;
    let peak = 0;
    for (const l of readFileSync(log, 'utf8').trim().split('\n')) {
      running += l === 'start' ? 1 : -1;
      peak = Math.max(peak, running);
    }
    expect(peak).toBe(PROCESS_COMMAND_CONCURRENCY);
  });

  it('keeps the tail of 10 MB of output in bounded memory', () => {
    // Measured in fresh processes so the test runner's own heap does not blur the figures.
    const mod = path.resolve('out/cli/main/checks/run-command.js');
    const measure = (mb: number) => {
      const cmd = `yes 'a line of output that repeats 0123456789' | head -c ${mb * 1024 * 1024}; echo; echo LAST-LINE`;
      const code = `const { runCommand } = await import(${JSON.stringify(mod)});
        const r = await runCommand(${JSON.stringify(cmd)}, { cwd: ${JSON.stringify(dir)}, timeoutMs: 60000 });
        // Let the pipe's last reads and close callbacks run before measuring: a chunk still in flight
        // is not retained, only not collected yet (it showed as ~2 MB once on a loaded machine).
        await new Promise((r) => setTimeout(r, 50));
        globalThis.gc();
        await new Promise((r) => setImmediate(r));
        globalThis.gc();
        console.log(JSON.stringify({ status: r.status, tail: r.outputTail, maxRssKb: process.resourceUsage().maxRSS, retained: process.memoryUsage().arrayBuffers }));`;
      const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
      return JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { status: string; tail: string; maxRssKb: number; retained: number };
    };
    const ten = measure(10);
    const fifty = measure(50);
    const triple = measure(150);
    expect(ten.status).toBe('pass');
    const lines = ten.tail.split('\n');
    expect(lines.at(-1)).toBe('LAST-LINE');
    expect(lines.at(-3)).toBe('a line of output that repeats 0123456789');
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(ten.tail.length).toBeLessThanOrEqual(16 * 1024);
    // Nothing of the output is kept after the run but the tail (well under 1 MiB of buffers)…
    expect(ten.retained).toBeLessThan(1024 * 1024);
    // …and the peak does not grow with the output: read chunks are garbage the GC collects in rounds
    // (a plateau of a few tens of MB, noisy by ~16 MB between runs), so 150 MB of output peaks near
    // where 50 MB does, not 100 MB higher.
    expect(triple.status).toBe('pass');
    expect(triple.maxRssKb - fifty.maxRssKb).toBeLessThan(48 * 1024);
  });
});

// Keep a reference so a failing test leaves no child behind unnoticed.
export type _Child = ChildProcess;
