// `mori checks`, `mori verify` and `mori trust` as a person or a script runs them: the real CLI in a
// child process, MORI_HOME in a temp dir, real servers, real commands, a faked reboot via MORI_BOOT_ID.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { initShellSession, moriIn, type MoriResult } from '../../../testkit/mori-cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CHECK_IDS } from '../../support/fixtures/checks/seed-check-ids.js';

let root: string;
let home: string;

const mori = (args: string[], env: NodeJS.ProcessEnv = {}): MoriResult => moriIn(home, args, env);

const session = (name: string): string => initShellSession(root, home, name);

const sessionJson = (stateDir: string) => JSON.parse(readFileSync(path.join(stateDir, 'session.json'), 'utf8')) as Record<string, unknown>;
/** The approvals the Mori home holds for one state dir. */
const approvals = (stateDir: string): { subject: string; hash: string }[] => {
  const file = path.join(home, 'trust.json');
  if (!existsSync(file)) return [];
  const all = (JSON.parse(readFileSync(file, 'utf8')) as { approvals: { stateDir: string; subject: string; hash: string }[] }).approvals;
  return all.filter((a) => a.stateDir === realpathSync(stateDir));
};
const checksApproval = (stateDir: string) => approvals(stateDir).find((a) => a.subject === 'checks') ?? null;
const verifiedEntries = (stateDir: string) => readFileSync(path.join(stateDir, 'work_log.md'), 'utf8').split('\n').filter((l) => /^- VERIFI/.test(l));

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-checks-cli-'));
  home = path.join(root, 'home');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mori checks', () => {
  it("prints the seed environment.md's checks with their sources, and the lines it did not understand", () => {
    const dir = session('seed');
    copyFileSync(new URL('../../support/fixtures/checks/seed-environment.md', import.meta.url), path.join(dir, 'environment.md'));
    copyFileSync(new URL('../../support/fixtures/checks/seed-session-state.md', import.meta.url), path.join(dir, 'session_state.md'));
    const j = mori(['checks', 'seed', '--json']);
    expect(j.code).toBe(0);
    const checks = j.json().checks as { id: string; source: { file: string; line: number } }[];
    expect(checks.map((c) => c.id)).toEqual(SEED_CHECK_IDS);
    expect((j.json().trust as { trusted: boolean }).trusted).toBe(false);
    const text = mori(['checks', 'seed']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/command\s+pytest tests\/\s+environment\.md:7 \(Test command\)\s+timeout 2m\s+needs trust/);
    expect(text.out).toMatch(/file\s+tests\/test_auth\.py\s+session_state\.md:4/);
    expect(text.out).toMatch(/Lines not understood as checks:\n\s+environment\.md:3\s+Project: \/home\/user\/api-server/);
  });

  it('lists malformed lines, and exits 3 naming what is missing', () => {
    const dir = session('malformed');
    writeFileSync(path.join(dir, 'environment.md'), '## Checks\n- tcp: localhost:99999\n- frobnicate: now\n');
    const r = mori(['checks', 'malformed']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Malformed check lines[^\n]*\n\s+environment\.md:2\s+tcp: localhost:99999\n\s+tcp: "localhost:99999" is not host:port/);
    expect(r.out).toMatch(/environment\.md:3\s+frobnicate: now\n\s+"frobnicate" is not a check kind/);
    const missing = mori(['checks', 'no-such-session', '--json']);
    expect(missing.code).toBe(3);
    expect(missing.json()).toMatchObject({ ok: false, code: 'not-found' });
  });
});

describe('mori verify', () => {
  it('exits 0 when all pass and 1 when one fails, records results and appends one work-log entry each', async () => {
    const dir = session('verify');
    const server = net.createServer((s) => s.destroy());
    const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as net.AddressInfo).port)));
    writeFileSync(path.join(dir, 'environment.md'), `## Setup\n- Cache: 127.0.0.1:${port}\n## Checks\n- file: .mori/verify/work_log.md\n`);
    const ok = mori(['verify', 'verify', '--json']);
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.json()).toMatchObject({ ok: true, summary: { total: 2, passed: 2 } });
    await new Promise<void>((r) => server.close(() => r()));
    const bad = mori(['verify', 'verify']);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^verify: checks 1\/2 passed \(Cache failed\)\n\s+FAIL\s+tcp\s+127\.0\.0\.1:\d+/);
    const last = sessionJson(dir).lastVerification as { results: { id: string; status: string; source: string }[] };
    expect(last.results.map((r) => [r.id, r.status, r.source])).toEqual([
      [`tcp:127.0.0.1:${port}`, 'fail', 'environment.md:2'],
      ['file:.mori/verify/work_log.md', 'pass', 'environment.md:4'],
    ]);
    expect(verifiedEntries(dir)).toEqual(['- VERIFIED - checks 2/2 passed', '- VERIFIED - checks 1/2 passed (Cache failed)']);
  });

  it('exits 0 for a session with no checks', () => {
    session('empty');
    expect(mori(['verify', 'empty']).code).toBe(0);
  });
});

describe('trust', () => {
  it('never runs an untrusted command (its marker stays absent), runs it after approval, and again needs approval after a change', () => {
    const dir = session('trusting');
    const project = path.dirname(path.dirname(dir));
    const marker = path.join(project, 'marker');
    const env = (cmd: string) => writeFileSync(path.join(dir, 'environment.md'), `## Setup\n- Test command: \`${cmd}\`\n`);
    env('touch marker');

    const before = mori(['verify', 'trusting', '--json']);
    expect(before.code).toBe(1);
    expect((before.json().results as { status: string }[])[0]?.status).toBe('untrusted');
    expect(existsSync(marker)).toBe(false);

    // No terminal and no --yes: the list is shown, nothing is approved, exit 1.
    const refused = mori(['trust', 'trusting']);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/command\s+touch marker\n\s+from environment\.md:2 \(Test command\)/);
    expect(refused.err).toMatch(/not approved/);
    expect(checksApproval(dir)).toBeNull();
    expect(mori(['verify', 'trusting']).code).toBe(1);
    expect(existsSync(marker)).toBe(false);

    const approved = mori(['trust', 'trusting', '--yes', '--json']);
    expect(approved.code).toBe(0);
    expect(approved.json()).toMatchObject({ ok: true, approved: true });
    expect(checksApproval(dir)?.hash).toBe(approved.json().hash);
    expect(sessionJson(dir)).not.toHaveProperty('trust');
    expect(mori(['verify', 'trusting']).code).toBe(0);
    expect(existsSync(marker)).toBe(true);

    rmSync(marker);
    env('touch marker; touch marker2');
    const changed = mori(['verify', 'trusting']);
    expect(changed.code).toBe(1);
    expect(changed.out).toMatch(/CHANGED since they were approved/);
    expect(existsSync(marker)).toBe(false);
    expect(mori(['trust', 'trusting', '--yes']).code).toBe(0);
    expect(mori(['trust', 'trusting']).code).toBe(0); // already approved: nothing to ask
  });
});

describe('trust lives in the Mori home, not in the project', () => {
  it('runs nothing for another session with the identical list, nor for one whose session.json copies a trusted one and carries the hash', () => {
    const list = (dir: string) => writeFileSync(path.join(dir, 'environment.md'), '## Setup\n- Test command: `touch marker`\n');
    const marker = (dir: string) => path.join(path.dirname(path.dirname(dir)), 'marker');
    const trusted = session('trusted');
    list(trusted);
    const approved = mori(['trust', 'trusted', '--yes', '--json']);
    expect(approved.code).toBe(0);
    expect(mori(['verify', 'trusted']).code).toBe(0);
    expect(existsSync(marker(trusted))).toBe(true);
    // The approval is the person's: a 0600 file in the 0700 home.
    expect(statSync(path.join(home, 'trust.json')).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);

    const twin = session('twin');
    list(twin);
    const twinRun = mori(['verify', 'twin', '--json']);
    expect(twinRun.code).toBe(1);
    expect((twinRun.json().results as { status: string }[])[0]?.status).toBe('untrusted');
    expect(existsSync(marker(twin))).toBe(false);

    // Everything a trusted session's file holds, plus the hash of its own list as older files kept
    // it: what an agent or a cloned repository's .mori/ could write.
    const forged = session('forged');
    list(forged);
    const own = sessionJson(forged);
    const hash = String(approved.json().hash);
    writeFileSync(
      path.join(forged, 'session.json'),
      JSON.stringify({ ...sessionJson(trusted), id: own.id, name: own.name, projectDir: own.projectDir, trust: { approvedHash: hash, approvedAt: new Date().toISOString() } }),
    );
    const forgedRun = mori(['verify', 'forged', '--json']);
    expect(forgedRun.code, forgedRun.err).toBe(1);
    expect((forgedRun.json().results as { status: string }[])[0]?.status).toBe('untrusted');
    expect(existsSync(marker(forged))).toBe(false);

    expect(mori(['trust', 'forged', '--yes']).code).toBe(0);
    expect(mori(['verify', 'forged']).code).toBe(0);
    expect(existsSync(marker(forged))).toBe(true);
    expect(sessionJson(forged)).not.toHaveProperty('trust');
  });
});

describe('pid checks across a reboot', () => {
  it('fail for a pid written in another boot even though that number is alive', async () => {
    const dir = session('pids');
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      writeFileSync(path.join(dir, 'environment.md'), `## Running Services\n- Worker: running (pid ${child.pid})\n`);
      const first = mori(['verify', 'pids', '--json'], { MORI_BOOT_ID: 'boot-a' });
      expect(first.code).toBe(0);
      expect((sessionJson(dir).pidBoots as Record<string, { bootId: string }>)[String(child.pid)]?.bootId).toBe('boot-a');

      const after = mori(['verify', 'pids', '--json'], { MORI_BOOT_ID: 'boot-b' });
      expect(after.code).toBe(1);
      const r = (after.json().results as { status: string; detail: string }[])[0];
      expect(r?.status).toBe('fail');
      expect(r?.detail).toMatch(/written in another boot.*some other process/);
      // The record keeps the boot the pid was written in.
      expect((sessionJson(dir).pidBoots as Record<string, { bootId: string }>)[String(child.pid)]?.bootId).toBe('boot-a');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('mori trust on a terminal', () => {
  async function trustOnTty(name: string, answer: string): Promise<{ code: number; screen: string }> {
    const pty = (await import('node-pty')).default;
    const term = pty.spawn(process.execPath, ['bin/mori.js', 'trust', name], { cwd: process.cwd(), env: { ...process.env, MORI_HOME: home }, cols: 120, rows: 30 });
    let screen = '';
    let answered = false;
    return new Promise((resolve) => {
      term.onData((d) => {
        screen += d;
        if (!answered && screen.includes('[y/N]')) {
          answered = true;
          term.write(`${answer}\r`);
        }
      });
      term.onExit(({ exitCode }) => resolve({ code: exitCode, screen }));
    });
  }

  it('asks, and approves only on yes', async () => {
    const dir = session('tty');
    writeFileSync(path.join(dir, 'environment.md'), '## Setup\n- Test command: `true`\n');
    const no = await trustOnTty('tty', 'n');
    expect(no.screen).toMatch(/command\s+true/);
    expect(no.code).toBe(1);
    expect(checksApproval(dir)).toBeNull();
    const yes = await trustOnTty('tty', 'y');
    expect(yes.code).toBe(0);
    expect(yes.screen).toMatch(/Approved 1 item/);
    expect(checksApproval(dir)).not.toBeNull();
  });
});
