// pidAlive: a running process is alive, an exited one is not, and neither is a zombie (exited, its
// status not collected yet: a lock or socket it held is gone, whatever signal 0 says).
import { execFileSync, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { pidAlive } from '../../../main/os/pid-alive.js';
import { until as waitUntil } from '../../../testkit/until.js';

const children: number[] = [];
afterEach(() => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const until = (what: string, ok: () => boolean): Promise<void> => waitUntil(what, ok, undefined, 10_000, 20);

describe('pidAlive', () => {
  it('running, exited, invalid', async () => {
    expect(pidAlive(process.pid)).toBe(true);
    const child = spawn('sleep', ['10']);
    children.push(child.pid as number);
    expect(pidAlive(child.pid as number)).toBe(true);
    child.kill('SIGKILL');
    await until('the reaped child to be gone', () => !pidAlive(child.pid as number));
    expect(pidAlive(0)).toBe(false);
    expect(pidAlive(-5)).toBe(false);
  });

  it.runIf(process.platform === 'linux')('a zombie is not alive', async () => {
    // The background sleep's parent becomes the exec'd `sleep 10`, which never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.05 & exec sleep 10']);
    children.push(parent.pid as number);
    let zombie = 0;
    await until('the zombie', () => {
      const out = execFileSync('ps', ['-o', 'pid=,stat=', '--ppid', String(parent.pid)], { encoding: 'utf8' }).trim();
      const m = /^(\d+)\s+Z/.exec(out);
      zombie = m ? Number(m[1]) : 0;
      return zombie > 0;
    });
    expect(() => process.kill(zombie, 0)).not.toThrow(); // signal 0 alone would call it alive
    expect(pidAlive(zombie)).toBe(false);
  });
});
