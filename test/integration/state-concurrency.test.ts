// Concurrency of the state dir across real processes: appends, the session lock, compaction.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLockOwner, tryLock } from '../../main/state/pid-lock.js';
import { appendEntry, compactWorkLog, parseEntries, readTailEntries, WORK_LOG, WORK_LOG_ARCHIVE } from '../../main/state/work-log.js';
import { REPO, tempDir } from '../helpers/mori-cli.js';

const HOLDER = path.join(REPO, 'test', 'fixtures', 'lock-holder.mjs');

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOLDER, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(err))));
  });
}

describe('work log appends', () => {
  it('100 concurrent appends from separate processes give 100 whole entries, none interleaved', async () => {
    const dir = tempDir('append');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n');
    await Promise.all(Array.from({ length: 100 }, () => run(['-', 'append', dir])));
    const entries = parseEntries(readFileSync(path.join(dir, WORK_LOG)));
    expect(entries).toHaveLength(100);
    const pids = new Set<string>();
    for (const e of entries) {
      const pid = /entry from (\d+)/.exec(e.lines[0] ?? '')?.[1] ?? '';
      expect(e.lines).toEqual([`entry from ${pid}`, `second line from ${pid}`]);
      pids.add(pid);
    }
    expect(pids.size).toBe(100);
  }, 120_000);
});

describe('the session lock', () => {
  it('lets one process in; the others see who holds it', async () => {
    const dir = tempDir('lock');
    const file = path.join(dir, 'session.lock');
    const holder = spawn(process.execPath, [HOLDER, file, 'hold'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const first = await new Promise<string>((r) => holder.stdout.once('data', (d: Buffer) => r(d.toString().trim())));
    expect(first).toBe('got');
    const others = await Promise.all(Array.from({ length: 10 }, () => run([file, 'try'])));
    expect(others).toEqual(Array(10).fill(`held ${holder.pid}`));
    holder.stdin.end();
    await new Promise((r) => holder.on('close', r));
    expect(await run([file, 'try'])).toBe('got');
  }, 60_000);

  it('is stale when its pid is gone, or when it was taken in another boot', async () => {
    const dir = tempDir('lock-stale');
    const file = path.join(dir, 'session.lock');
    // A holder SIGKILLed while holding: the lock file stays, its pid is dead.
    const holder = spawn(process.execPath, [HOLDER, file, 'hold'], { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise((r) => holder.stdout.once('data', r));
    holder.kill('SIGKILL');
    await new Promise((r) => holder.on('close', r));
    expect(readLockOwner(file)?.pid).toBe(holder.pid);
    expect(await run([file, 'try'])).toBe('got');

    // A live holder from a different boot (same pid number alive now, as after a reboot).
    const live = spawn(process.execPath, [HOLDER, file, 'hold'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, MORI_BOOT_ID: 'old-boot' } });
    expect(await new Promise<string>((r) => live.stdout.once('data', (d: Buffer) => r(d.toString().trim())))).toBe('got');
    expect(await run([file, 'try'], { MORI_BOOT_ID: 'old-boot' })).toBe(`held ${live.pid}`);
    expect(await run([file, 'try'], { MORI_BOOT_ID: 'new-boot' })).toBe('got');
    live.kill('SIGKILL');
  }, 60_000);

  it('when many processes race for a stale lock, exactly one wins', async () => {
    const dir = tempDir('lock-race');
    const file = path.join(dir, 'session.lock');
    writeFileSync(file, JSON.stringify({ pid: 999_999_999, bootId: 'x', acquiredAt: 'then', purpose: 'dead' }));
    const holders = Array.from({ length: 8 }, () => spawn(process.execPath, [HOLDER, file, 'hold'], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const closed = holders.map((h) => new Promise((r) => h.on('close', r)));
    const said = await Promise.all(holders.map((h) => new Promise<string>((r) => h.stdout.once('data', (d: Buffer) => r(d.toString().trim())))));
    expect(said.filter((s) => s === 'got')).toHaveLength(1);
    for (const h of holders) h.stdin.end();
    await Promise.all(closed);
  }, 60_000);

  it('is released only by its owner', () => {
    const dir = tempDir('lock-own');
    const file = path.join(dir, 'session.lock');
    const a = tryLock(file, 'a');
    expect(a.ok).toBe(true);
    expect(tryLock(file, 'b').ok).toBe(false); // same process, still held
    if (a.ok) a.release();
    expect(tryLock(file, 'c').ok).toBe(true);
  });
});

describe('work log compaction', () => {
  it('moves older entries to the archive past the budget, keeps the title, loses nothing', () => {
    const dir = tempDir('compact');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n<!-- hint -->\n');
    const budget = 4096;
    for (let i = 0; i < 200; i++) appendEntry(dir, [`step ${i}`, 'x'.repeat(50)], new Date(), budget);
    const log = readFileSync(path.join(dir, WORK_LOG), 'utf8');
    expect(log.startsWith('# Work log\n<!-- hint -->\n')).toBe(true);
    expect(Buffer.byteLength(log)).toBeLessThanOrEqual(budget + 200);
    const all = [...parseEntries(readFileSync(path.join(dir, WORK_LOG_ARCHIVE))), ...parseEntries(readFileSync(path.join(dir, WORK_LOG)))];
    expect(all.map((e) => e.lines[0])).toEqual(Array.from({ length: 200 }, (_, i) => `step ${i}`));
    expect(readTailEntries(dir, 3).map((e) => e.lines[0])).toEqual(['step 197', 'step 198', 'step 199']);
  });

  it('keeps an entry that another process appends while it compacts', async () => {
    const dir = tempDir('compact-race');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n');
    for (let i = 0; i < 100; i++) appendEntry(dir, [`mine ${i}`], new Date(), Number.MAX_SAFE_INTEGER);
    // Appenders keep writing from other processes while this process compacts repeatedly.
    const appenders = Promise.all(Array.from({ length: 30 }, () => run(['-', 'append', dir])));
    let moved = 0;
    for (let i = 0; i < 20; i++) moved += compactWorkLog(dir, 1024);
    await appenders;
    expect(moved).toBeGreaterThan(0);
    const all = [...parseEntries(readFileSync(path.join(dir, WORK_LOG_ARCHIVE))), ...parseEntries(readFileSync(path.join(dir, WORK_LOG)))];
    const theirs = all.filter((e) => e.lines[0]?.startsWith('entry from'));
    expect(new Set(theirs.map((e) => e.lines[0])).size).toBe(30);
    expect(all.filter((e) => e.lines[0]?.startsWith('mine'))).toHaveLength(100);
  }, 60_000);

  it('reads only the tail of a huge log', () => {
    const dir = tempDir('tail');
    const body = Array.from({ length: 50_000 }, (_, i) => `\n## 2026-11-30 10:00\n- entry ${i} ${'y'.repeat(200)}\n`).join('');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n' + body);
    expect(readTailEntries(dir, 2).map((e) => e.lines[0]?.split(' ').slice(0, 2).join(' '))).toEqual(['entry 49998', 'entry 49999']);
  });
});
