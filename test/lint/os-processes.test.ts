// Process facts have one home, main/os/: whether a pid is alive (a zombie is not), signalling a
// group, a process tree, start times, the boot. A second liveness check elsewhere in main/ drifts
// from the first (one counted zombies as alive, another did not), so this fails on signal 0 sent
// outside main/os/ and on a liveness function defined anywhere but main/os/pid-alive.ts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../testkit/mori-cli.js';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = path.join(dir, e);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** `process.kill(<anything>, 0)`: asking whether a process or group exists. */
const SIGNAL_ZERO = /process\.kill\([^,()]*(?:\([^()]*\))?[^,()]*,\s*0\s*\)/;
/** A function (or const) named like a liveness check. */
const LIVENESS_DEFINITION = /\b(?:function\s+|(?:const|let)\s+)(pidAlive|isAlive|processAlive|pidExists|isRunning|processExists)\b/;

/** `file:line: text` for each line of main/ outside main/os/ that matches `pattern`. */
function offenders(pattern: RegExp, allowed: (rel: string) => boolean): string[] {
  return tsFiles(path.join(REPO, 'main')).flatMap((file) => {
    const rel = path.relative(REPO, file).split(path.sep).join('/');
    if (allowed(rel)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : []));
  });
}

describe('process liveness', () => {
  it('sends signal 0 only in main/os/', () => {
    expect(offenders(SIGNAL_ZERO, (rel) => rel.startsWith('main/os/'))).toEqual([]);
  });

  it('is defined once, in main/os/pid-alive.ts', () => {
    expect(offenders(LIVENESS_DEFINITION, (rel) => rel === 'main/os/pid-alive.ts')).toEqual([]);
  });

  it('would catch a copy', () => {
    expect(SIGNAL_ZERO.test('    process.kill(pid, 0);')).toBe(true);
    expect(SIGNAL_ZERO.test('process.kill(-pgid, 0)')).toBe(true);
    expect(SIGNAL_ZERO.test('process.kill(Number(pid), 0)')).toBe(true);
    expect(SIGNAL_ZERO.test("process.kill(pid, 'SIGTERM')")).toBe(false);
    expect(LIVENESS_DEFINITION.test('export function isAlive(pid: number): boolean {')).toBe(true);
    expect(LIVENESS_DEFINITION.test('const pidExists = (pid: number) => true;')).toBe(true);
    expect(LIVENESS_DEFINITION.test('  async isAlive(id: string): Promise<boolean> {')).toBe(false);
  });
});
