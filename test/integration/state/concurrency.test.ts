// Concurrency of the state dir across real processes: appends, the session lock, compaction.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readLockOwner, tryLock } from '../../../main/state/pid-lock.js';
import { bootId } from '../../../main/os/boot-id.js';
import { processStartTime } from '../../../main/os/process-start.js';
import { appendEntry, compactWorkLog, parseEntries, readTailEntries, settleWorkLog } from '../../../main/state/work-log.js';
import { COMPACTION_JOURNAL } from '../../../main/state/work-log-compaction.js';
import { tempDir } from '../../../testkit/mori-cli.js';
import { bundleFixtures } from '../../support/bundled-fixtures.js';
import { until as waitUntil } from '../../../testkit/until.js';
import { WORK_LOG, WORK_LOG_ARCHIVE } from '../../../common/state-files.js';

/** The fixtures, bundled (test/support/bundled-fixtures.ts): these tests start a few hundred of them. */
let HOLDER = '';
let RACER = '';
beforeAll(async () => {
  const bundled = await bundleFixtures(['lock-holder.mjs', 'lock-racer.mjs']);
  HOLDER = bundled['lock-holder.mjs']!;
  RACER = bundled['lock-racer.mjs']!;
}, 60_000);

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

  it('is stale when its pid is alive but belongs to a process that started at another time (a reused pid)', async () => {
    const dir = tempDir('lock-reused');
    const file = path.join(dir, 'session.lock');
    // A live process holds the pid; the lock says its holder started at another moment.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = other.pid!;
    const real = processStartTime(pid);
    expect(real).not.toBeNull();
    try {
      writeFileSync(file, JSON.stringify({ pid, bootId: bootId(), acquiredAt: 'then', purpose: 'dead holder', startTime: `${real}-not` }));
      expect(await run([file, 'try'])).toBe('got');
      // The same pid with its true start time is a live holder.
      writeFileSync(file, JSON.stringify({ pid, bootId: bootId(), acquiredAt: 'now', purpose: 'live holder', startTime: real }));
      expect(await run([file, 'try'])).toBe(`held ${pid}`);
    } finally {
      other.kill('SIGKILL');
    }
  }, 60_000);

  it('a stale lock is taken over only by the one process holding its takeover guard', async () => {
    const dir = tempDir('lock-guard');
    const file = path.join(dir, 'session.lock');
    writeFileSync(file, JSON.stringify({ pid: 999_999_999, bootId: bootId(), acquiredAt: 'then', purpose: 'dead', token: 'T1' }));
    // Another process is in the middle of taking it over: it holds the guard of that lock instance.
    const taker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const guard = `${file}.takeover.T1`;
    try {
      writeFileSync(guard, JSON.stringify({ pid: taker.pid, bootId: bootId(), acquiredAt: 'now', purpose: 'stale lock takeover', startTime: processStartTime(taker.pid!), token: 'G1' }));
      expect(await run([file, 'try'])).toBe('held 999999999');
      expect(readLockOwner(file)?.purpose).toBe('dead');
    } finally {
      taker.kill('SIGKILL');
      await new Promise((r) => taker.on('close', r));
    }
    // The taker died mid-takeover: its guard is stale in turn, and the lock is taken over.
    expect(await run([file, 'try'])).toBe('got');
  }, 60_000);

  it('many processes racing for many stale locks: each lock has exactly one winner', async () => {
    const dir = tempDir('lock-storm');
    const locks = 150;
    const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const live = sleeper.pid!;
    for (let i = 0; i < locks; i++) {
      // Dead pids, and live pids with another start time: both stale.
      const owner = i % 2 === 0
        ? { pid: 999_999_000 + i, bootId: bootId(), acquiredAt: `then ${i}`, purpose: 'dead' }
        : { pid: live, bootId: bootId(), acquiredAt: `then ${i}`, purpose: 'reused pid', startTime: 'linux:1' };
      writeFileSync(path.join(dir, `l${i}.lock`), JSON.stringify(owner));
    }
    const racers = Array.from({ length: 12 }, () => spawn(process.execPath, [RACER, dir, String(locks)], { stdio: ['pipe', 'pipe', 'inherit'] }));
    try {
      const lines = racers.map((r) => {
        const out: string[] = [];
        let buf = '';
        r.stdout.on('data', (d: Buffer) => {
          buf += d.toString();
          const parts = buf.split('\n');
          buf = parts.pop() ?? '';
          out.push(...parts);
        });
        return out;
      });
      const until = (cond: () => boolean): Promise<void> => waitUntil('the racers to answer', cond, undefined, 40_000, 20);
      await until(() => lines.every((l) => l[0] === 'ready'));
      for (const r of racers) r.stdin.write('go\n');
      await until(() => lines.every((l) => l.length >= 2));
      const wins = new Map<number, number>();
      for (const l of lines) for (const i of JSON.parse(l[1]!) as number[]) wins.set(i, (wins.get(i) ?? 0) + 1);
      const doubled = [...wins].filter(([, n]) => n > 1).map(([i]) => i);
      expect(doubled, 'locks with two holders').toEqual([]);
      expect(wins.size).toBe(locks);
    } finally {
      for (const r of racers) r.stdin.end();
      await Promise.all(racers.map((r) => new Promise((res) => (r.exitCode !== null ? res(null) : r.on('close', res)))));
      sleeper.kill('SIGKILL');
    }
  }, 90_000);

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

  it("keeps Mori's own entries in the log, the newest up to a share of the budget, and loses nothing", () => {
    const dir = tempDir('compact-mori');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n');
    const budget = 4096;
    const at = new Date();
    for (let i = 0; i < 200; i++) {
      appendEntry(dir, [`step ${i}`, 'x'.repeat(50)], at, budget);
      if (i % 20 === 0) appendEntry(dir, [`SESSION RESUMED - crash; agent relaunched (${i})`], at, budget);
      if (i % 20 === 10) appendEntry(dir, [`CHECKPOINT - ${i}`], at, budget);
    }
    const log = parseEntries(readFileSync(path.join(dir, WORK_LOG)));
    const archive = parseEntries(readFileSync(path.join(dir, WORK_LOG_ARCHIVE)));
    const resumed = (es: typeof log): string[] => es.flatMap((e) => (e.lines[0]?.startsWith('SESSION RESUMED') ? [e.lines[0]] : []));
    expect(resumed(log)).toEqual(Array.from({ length: 10 }, (_, i) => `SESSION RESUMED - crash; agent relaunched (${i * 20})`));
    expect(resumed(archive)).toEqual([]);
    // The agent's old steps and the checkpoints moved; the log is back under its budget.
    expect(archive.some((e) => e.lines[0] === 'step 0') && archive.some((e) => e.lines[0] === 'CHECKPOINT - 10')).toBe(true);
    expect(readFileSync(path.join(dir, WORK_LOG)).length).toBeLessThanOrEqual(budget);
    const all = [...archive, ...log].map((e) => e.lines[0]);
    expect(all).toHaveLength(220);
    expect(new Set(all).size).toBe(220);

    // A log of nothing but Mori's entries still shrinks: only a share of the budget stays.
    const only = tempDir('compact-mori-only');
    writeFileSync(path.join(only, WORK_LOG), '# Work log\n');
    for (let i = 0; i < 300; i++) appendEntry(only, [`SESSION NOTE - note ${i} ${'y'.repeat(40)}`], at, budget);
    expect(readFileSync(path.join(only, WORK_LOG)).length).toBeLessThanOrEqual(budget);
    expect([...parseEntries(readFileSync(path.join(only, WORK_LOG_ARCHIVE))), ...parseEntries(readFileSync(path.join(only, WORK_LOG)))]).toHaveLength(300);
  });

  it('keeps an entry that another process appends while it compacts', async () => {
    const dir = tempDir('compact-race');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n');
    for (let i = 0; i < 100; i++) appendEntry(dir, [`mine ${i}`], new Date(), Number.MAX_SAFE_INTEGER);
    // Appenders keep writing from other processes while this process compacts repeatedly.
    const appenders = Promise.all(Array.from({ length: 30 }, () => run(['-', 'append', dir])));
    // Twenty compactions at least, and more until one got the lock and moved entries: on a loaded
    // machine an appender can hold it through every one of a quick twenty.
    let moved = 0;
    const deadline = Date.now() + 30_000;
    for (let i = 0; i < 20 || (moved === 0 && Date.now() < deadline); i++) {
      moved += compactWorkLog(dir, 1024);
      if (i >= 20) await new Promise((r) => setTimeout(r, 20));
    }
    await appenders;
    expect(moved).toBeGreaterThan(0);
    const all = [...parseEntries(readFileSync(path.join(dir, WORK_LOG_ARCHIVE))), ...parseEntries(readFileSync(path.join(dir, WORK_LOG)))];
    const theirs = all.filter((e) => e.lines[0]?.startsWith('entry from'));
    expect(new Set(theirs.map((e) => e.lines[0])).size).toBe(30);
    expect(all.filter((e) => e.lines[0]?.startsWith('mine'))).toHaveLength(100);
  }, 60_000);

  it('30 processes appending while compactions keep running: every entry exactly once in log + archive', async () => {
    const dir = tempDir('compact-storm');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n');
    // 2 KiB: a compaction every ~15 entries, so hundreds run while the appenders write.
    const budget = 2048;
    const perProcess = 40;
    let running = true;
    const appenders = Promise.all(Array.from({ length: 30 }, () => run(['-', 'append-many', dir, String(perProcess), String(budget)]))).finally(() => {
      running = false;
    });
    let rounds = 0;
    while (running) {
      compactWorkLog(dir, budget);
      rounds++;
      await new Promise((r) => setTimeout(r, 1));
    }
    await appenders;
    expect(rounds).toBeGreaterThan(10);
    expect(statSync(path.join(dir, WORK_LOG_ARCHIVE)).size).toBeGreaterThan(30 * perProcess * 40);
    const all = [...parseEntries(readFileSync(path.join(dir, WORK_LOG_ARCHIVE))), ...parseEntries(readFileSync(path.join(dir, WORK_LOG)))];
    const ids = all.map((e) => e.lines[0] ?? '');
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    expect(twice, 'entries in both files or twice').toEqual([]);
    expect(counts.size).toBe(30 * perProcess);
    // In order per process, none missing.
    const byPid = new Map<string, number[]>();
    for (const id of ids) {
      const [pid, n] = id.replace('entry ', '').split('-');
      byPid.set(pid!, [...(byPid.get(pid!) ?? []), Number(n)]);
    }
    for (const ns of byPid.values()) expect(ns).toEqual(Array.from({ length: perProcess }, (_, i) => i));
  }, 180_000);

  it('a compaction stopped after writing the archive is undone, so nothing is in both files', () => {
    const dir = tempDir('compact-undo');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n');
    for (let i = 0; i < 20; i++) appendEntry(dir, [`step ${i}`], new Date(), Number.MAX_SAFE_INTEGER);
    const log = readFileSync(path.join(dir, WORK_LOG));
    // What a compaction killed right after its archive append leaves: the journal, and the first
    // entries copied into the archive while the log still has them.
    writeFileSync(path.join(dir, WORK_LOG_ARCHIVE), '\n## 2026-01-01 00:00\n- archived long ago\n');
    const before = statSync(path.join(dir, WORK_LOG_ARCHIVE)).size;
    writeFileSync(path.join(dir, COMPACTION_JOURNAL), JSON.stringify({ archiveSize: before, logIno: statSync(path.join(dir, WORK_LOG)).ino }));
    writeFileSync(path.join(dir, WORK_LOG_ARCHIVE), log.subarray(11, 200), { flag: 'a' });
    expect(settleWorkLog(dir)).toBe(true);
    const archived = parseEntries(readFileSync(path.join(dir, WORK_LOG_ARCHIVE))).map((e) => e.lines[0]);
    expect(archived).toEqual(['archived long ago']);
    expect(readFileSync(path.join(dir, WORK_LOG))).toEqual(log);
  });

  it("keeps an agent's append that opened the log before compaction replaced it and wrote after", () => {
    const dir = tempDir('compact-late');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n');
    for (let i = 0; i < 40; i++) appendEntry(dir, [`step ${i}`, 'y'.repeat(40)], new Date(), Number.MAX_SAFE_INTEGER);
    // `echo ... >> work_log.md`, paused between its open and its write while the log is compacted.
    const fd = openSync(path.join(dir, WORK_LOG), 'a');
    expect(compactWorkLog(dir, 1024)).toBeGreaterThan(0);
    writeSync(fd, '\n## 2026-11-30 12:00\n- late from the agent\n');
    closeSync(fd);
    expect(settleWorkLog(dir)).toBe(true);
    const all = [...parseEntries(readFileSync(path.join(dir, WORK_LOG_ARCHIVE))), ...parseEntries(readFileSync(path.join(dir, WORK_LOG)))];
    expect(all.map((e) => e.lines[0])).toEqual([...Array.from({ length: 40 }, (_, i) => `step ${i}`), 'late from the agent']);
    expect(readTailEntries(dir, 1)[0]?.lines).toEqual(['late from the agent']);
    // Settling again moves nothing twice.
    expect(settleWorkLog(dir)).toBe(true);
    expect(parseEntries(readFileSync(path.join(dir, WORK_LOG))).filter((e) => e.lines[0] === 'late from the agent')).toHaveLength(1);
  });

  it('reads only the tail of a huge log', () => {
    const dir = tempDir('tail');
    const body = Array.from({ length: 50_000 }, (_, i) => `\n## 2026-11-30 10:00\n- entry ${i} ${'y'.repeat(200)}\n`).join('');
    writeFileSync(path.join(dir, WORK_LOG), '# Work log\n' + body);
    expect(readTailEntries(dir, 2).map((e) => e.lines[0]?.split(' ').slice(0, 2).join(' '))).toEqual(['entry 49998', 'entry 49999']);
  });
});
