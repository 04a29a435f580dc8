// The test files' order (test/measured-order.ts) and the durations file it reads, written by
// scripts/test-durations.mjs from a run's record: longest measured first, unknown files after them
// largest first; a durations file that is not one is refused naming it; the script reads Vitest's
// JSON report, its results cache and a CI log alike, and keeps what a run did not measure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DURATIONS_FILE, measuredOrder, readDurations } from '../measured-order.js';
import { REPO } from '../../testkit/mori-cli.js';

const SCRIPT = path.join(REPO, 'scripts', 'test-durations.mjs');

describe('the order of test files', () => {
  it('runs the longest measured first, then the unknown ones largest first', () => {
    const seconds = new Map([
      ['test/a.test.ts', 3],
      ['test/b.test.ts', 120],
      ['test/c.test.ts', 40],
    ]);
    const sizes: Record<string, number> = { 'test/new-small.test.ts': 100, 'test/new-big.test.ts': 9_000 };
    const files = ['test/a.test.ts', 'test/new-small.test.ts', 'test/b.test.ts', 'test/new-big.test.ts', 'test/c.test.ts'];
    const ordered = measuredOrder(files, (f) => f, (f) => sizes[f] ?? 0, seconds);
    expect(ordered).toEqual(['test/b.test.ts', 'test/c.test.ts', 'test/a.test.ts', 'test/new-big.test.ts', 'test/new-small.test.ts']);
  });

  it('reads the checked-in durations, which name every test file there is', () => {
    const seconds = readDurations();
    const listed = execFileSync('git', ['ls-files', 'test/**/*.test.ts'], { cwd: REPO, encoding: 'utf8' }).trim().split('\n');
    // A file added since the durations were measured only runs among the unknown; most are known.
    expect(listed.filter((f) => seconds.has(f)).length).toBeGreaterThan(listed.length * 0.9);
    expect(DURATIONS_FILE).toBe(path.join(REPO, 'test', 'durations.json'));
  });

  it('refuses a durations file that is not one, naming it and the problem', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mori-durations-'));
    const bad = path.join(dir, 'durations.json');
    writeFileSync(bad, '{"files": {"test/x.test.ts": "slow"}}');
    expect(() => readDurations(bad)).toThrow(`${bad}: "test/x.test.ts" has "slow", not a number of seconds`);
    writeFileSync(bad, '{"files": ');
    expect(() => readDurations(bad)).toThrow(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*npm run test:durations`));
  });
});

describe('scripts/test-durations.mjs', () => {
  it('takes the figures of a JSON report, the results cache and a CI log, the later winning, and keeps the rest', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mori-durations-'));
    const report = path.join(dir, 'report.json');
    const cache = path.join(dir, 'results.json');
    const log = path.join(dir, 'ci.txt');
    const a = 'test/unit/web/auth.test.ts';
    const b = 'test/unit/os/libc.test.ts';
    const c = 'test/integration/daemon.test.ts';
    writeFileSync(report, JSON.stringify({ testResults: [{ name: path.join(REPO, a), startTime: 1_000, endTime: 3_500 }] }));
    writeFileSync(cache, JSON.stringify({ version: '4.1.12', results: [[`:${b}`, { duration: 700, failed: false }], [`unit:${a}`, { duration: 9_000, failed: false }]] }));
    writeFileSync(log, `> \x1b[32m✓\x1b[39m ${c} \x1b[2m(2 tests)\x1b[22m\x1b[33m 12345\x1b[2mms\x1b[22m\n >  ❯ |integration| test/unit/gone-since.test.ts (1 test | 1 failed) 5ms\n`);
    const out = path.join(dir, 'durations.json');
    const kept = 'test/unit/web/static-files.test.ts';
    writeFileSync(out, JSON.stringify({ files: { [kept]: 4.2, 'test/unit/gone-since.test.ts': 1, [c]: 99 } }));
    execFileSync(process.execPath, [SCRIPT, `--out=${out}`, cache, report, log], { cwd: REPO, encoding: 'utf8' });
    const files = (JSON.parse(readFileSync(out, 'utf8')) as { files: Record<string, number> }).files;
    // The report came after the cache: its 2.5 s wins over the cache's 9 s.
    expect(files[a]).toBe(2.5);
    expect(files[b]).toBe(0.7);
    expect(files[c]).toBe(12.3);
    // One no record measured keeps its figure; a file that no longer exists is dropped.
    expect(files[kept]).toBe(4.2);
    expect(files).not.toHaveProperty(['test/unit/gone-since.test.ts']);
    expect(Object.keys(files)).toEqual([c, kept, a, b]);
  });

  it('refuses a record it cannot read, naming it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mori-durations-'));
    const odd = path.join(dir, 'odd.json');
    writeFileSync(odd, '{"numFailedTests": 0}');
    expect(() => execFileSync(process.execPath, [SCRIPT, odd], { cwd: REPO, stdio: 'pipe' })).toThrow(`${odd}: JSON that is neither a Vitest JSON report`);
  });
});
