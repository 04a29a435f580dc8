// `mori up` ends promptly on SIGTERM even in the middle of a verification: the running check's
// process group is killed and nothing of it is left. A real `mori up`, a real trusted `sleep` check.
import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../../../testkit/mori-cli.js';
import { hasEvent, UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness | null = null;
afterEach(() => {
  h?.cleanup();
  h = null;
});

/** Pids whose command line is exactly `sleep <arg>`. */
function sleeping(arg: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8') === `sleep\0${arg}\0`) out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe('mori up on SIGTERM', () => {
  it.runIf(process.platform === 'linux')('exits within 5 s while a check runs, leaving no check process behind', async () => {
    h = new UpHarness('shutdown');
    h.init('s1', 'direct');
    // `sleep 600` with a fraction unique to this run, so the test finds its own process only.
    const arg = `600.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    appendFileSync(path.join(h.stateDir('s1'), 'environment.md'), `\n## Checks\n- command: \`sleep ${arg}\`\n`);
    expect(h.mori('trust', 's1', '--yes').code).toBe(0);
    // An interrupted session is verified before it is relaunched.
    const file = path.join(h.stateDir('s1'), 'session.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...json, intent: { kind: 'interrupted', reason: 'crash' } }, null, 2));

    const up = h.up(['s1']);
    await until('verifying', () => hasEvent(up, 'verify.started'), () => up.stderr());
    await until('the check running', () => sleeping(arg).length > 0, () => up.stderr());

    const t0 = Date.now();
    up.child.kill('SIGTERM');
    const code = await Promise.race([up.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 15_000))]);
    const took = Date.now() - t0;
    expect(code, up.stderr()).not.toBe('hung');
    expect(took, `exit code ${String(code)}; stderr: ${up.stderr()}`).toBeLessThanOrEqual(5_000);
    // Every process of the check was killed before `mori up` exited; on a loaded machine a killed
    // process may take a moment to leave the process table.
    await until('no check process left', () => sleeping(arg).length === 0, () => JSON.stringify(sleeping(arg)), 3_000);
  });
});

describe('the shutdown deadline', () => {
  it.runIf(process.platform === 'linux')('exits a process whose shutdown hangs, killing the check groups it still tracks', async () => {
    const arg = `600.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    // A process with a check group running and a shutdown that never finishes (a ref'd timer).
    const script = `
      import { spawn } from 'node:child_process';
      import { trackGroup } from '${REPO}/out/cli/main/checks/in-flight.js';
      import { beginShutdown } from '${REPO}/out/cli/main/daemon/shutdown-deadline.js';
      const child = spawn('sleep', ['${arg}'], { detached: true, stdio: 'ignore' });
      child.on('spawn', () => { trackGroup(child.pid); process.stdout.write('ready\\n'); beginShutdown(500); });
      setInterval(() => {}, 60_000);
    `;
    const p = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const t0 = Date.now();
    const code = await new Promise<number | null>((r) => p.on('exit', (c) => r(c)));
    expect(code, err).toBe(1);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(err).toMatch(/shutdown did not finish within 0.5s; exiting anyway/);
    await until('the group killed', () => sleeping(arg).length === 0);
  });
});
