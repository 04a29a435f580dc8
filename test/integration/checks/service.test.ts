// Service recovery with a real tiny HTTP server as the service: `mori verify --restart-services`
// starts the trusted `start:` command detached, waits for its check to pass, writes `(pid N)` back
// into environment.md (every other byte unchanged) and logs to transcript/service-<name>.log.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { initShellSession, moriIn, type MoriResult } from '../../../testkit/mori-cli.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groupAlive, signalGroup } from '../../../main/os/process-group.js';
import { verifySession } from '../../../main/checks/verify-session.js';
import { offlineSessionWrite } from '../../../main/cli/offline-session-write.js';

let root: string;
let home: string;
const started: number[] = [];
const serverScript = fileURLToPath(new URL('../../support/fixtures/checks/tiny-server.mjs', import.meta.url));

const mori = (args: string[], env: NodeJS.ProcessEnv = {}): MoriResult => moriIn(home, args, env);

const session = (name: string): string => initShellSession(root, home, name);

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  const port = await new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as net.AddressInfo).port)));
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function waitFor(cond: () => boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until && !cond()) await new Promise((r) => setTimeout(r, 50));
  return cond();
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-checks-svc-'));
  home = path.join(root, 'home');
});
afterEach(async () => {
  for (const pid of started.splice(0)) {
    signalGroup(pid, 'SIGKILL');
    await waitFor(() => !groupAlive(pid));
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('service recovery', () => {
  it('starts a failing service only once trusted, writes its pid back and re-checks until it passes', async () => {
    const dir = session('svc');
    const port = await freePort();
    const envFile = path.join(dir, 'environment.md');
    // The server waits 300 ms before it listens, so the re-check has to back off and retry.
    const before =
      '# Environment\r\n\r\n## Setup\r\n- Notes: café\r\n\r\n## Running Services\r\n' +
      `- Tiny: http://127.0.0.1:${port}/health (pid 999999) start: \`node ${serverScript} ${port} 300\`\r\n` +
      '\r\n<!-- a comment Mori must keep -->\r\n';
    writeFileSync(envFile, before);

    const untrusted = mori(['verify', 'svc', '--restart-services', '--json']);
    expect(untrusted.code).toBe(1);
    expect((untrusted.json().services as { action: string }[])[0]?.action).toBe('untrusted');
    expect(readFileSync(envFile, 'utf8')).toBe(before);

    expect(mori(['trust', 'svc', '--yes']).code).toBe(0);
    const r = mori(['verify', 'svc', '--restart-services', '--json']);
    const services = r.json().services as { action: string; pid: number; log: string; pidWritten: boolean; detail: string }[];
    const svc = services[0];
    if (svc?.pid) started.push(svc.pid);
    expect(svc?.action, svc?.detail).toBe('restarted');
    expect(r.code, r.out).toBe(0);
    expect(svc?.pidWritten).toBe(true);

    // The service outlives the `mori` process that started it.
    expect(groupAlive(svc!.pid)).toBe(true);
    const after = readFileSync(envFile, 'utf8');
    expect(after).toBe(before.replace('(pid 999999)', `(pid ${svc!.pid})`));
    expect(readFileSync(path.join(dir, 'transcript', 'service-tiny.log'), 'utf8')).toMatch(/Mori starts Tiny[\s\S]*tiny-server listening on/);
    const results = r.json().results as { id: string; status: string }[];
    expect(results.map((x) => [x.id, x.status])).toEqual([
      [`http:http://127.0.0.1:${port}/health`, 'pass'],
      [`pid:${svc!.pid}`, 'pass'],
    ]);
    const sessionJson = JSON.parse(readFileSync(path.join(dir, 'session.json'), 'utf8')) as { pidBoots: Record<string, unknown> };
    expect(Object.keys(sessionJson.pidBoots)).toEqual([String(svc!.pid)]);
    expect(readFileSync(path.join(dir, 'work_log.md'), 'utf8')).toMatch(/- VERIFIED - checks 2\/2 passed\n- Service Tiny restarted \(pid \d+\), its checks pass\n/);

    // Running again: the service is up, so nothing is started.
    const again = mori(['verify', 'svc', '--restart-services', '--json']);
    expect(again.code).toBe(0);
    expect((again.json().services as { action: string }[])[0]?.action).toBe('not-needed');
  });

  it('reports a start command that exits before its checks pass, with its output', async () => {
    const dir = session('crashy');
    const port = await freePort();
    writeFileSync(path.join(dir, 'environment.md'), `## Running Services\n- Crashy: 127.0.0.1:${port} start: \`echo cannot bind >&2; exit 4\`\n`);
    expect(mori(['trust', 'crashy', '--yes']).code).toBe(0);
    const v = await verifySession(dir, { restartServices: true, serviceDeadlineMs: 20_000, home });
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    const svc = v.value.services[0];
    if (svc?.pid) started.push(svc.pid);
    expect(svc?.action).toBe('failed');
    expect(svc?.detail).toMatch(/exited before its checks passed[\s\S]*cannot bind/);
    expect(v.value.results[0]?.status).toBe('fail');
    expect(v.value.logLines.join('\n')).toMatch(/Service Crashy restart failed/);
  });
});

describe('verifySession', () => {
  it('on abort, ends a service it is starting and resolves promptly', async () => {
    const dir = session('svc-abort');
    const port = await freePort();
    // A service that never listens: Mori waits for its check until the abort.
    const arg = `600.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const sleeping = () =>
      readdirSync('/proc').filter((e) => {
        try {
          return /^\d+$/.test(e) && readFileSync(`/proc/${e}/cmdline`, 'utf8') === `sleep\0${arg}\0`;
        } catch {
          return false;
        }
      });
    writeFileSync(path.join(dir, 'environment.md'), `## Running Services\n- Never: http://127.0.0.1:${port}/ start: \`exec sleep ${arg}\`\n`);
    expect(mori(['trust', 'svc-abort', '--yes']).code).toBe(0);
    const abort = new AbortController();
    const run = verifySession(dir, { restartServices: true, serviceDeadlineMs: 60_000, signal: abort.signal, graceMs: 300, home });
    expect(await waitFor(() => sleeping().length > 0)).toBe(true);
    const t = Date.now();
    abort.abort();
    const v = await run;
    expect(Date.now() - t).toBeLessThan(5_000);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    if (v.value.services[0]?.pid) started.push(v.value.services[0].pid);
    expect(v.value.services[0]).toMatchObject({ action: 'failed' });
    expect(v.value.services[0]?.detail).toMatch(/cancelled; its process group was killed/);
    expect(await waitFor(() => sleeping().length === 0, 5_000)).toBe(true);
  });


  it('records a cancelled verification: the running command is killed, its result skipped, one entry logged', async () => {
    const dir = session('cancel');
    writeFileSync(path.join(dir, 'environment.md'), '## Setup\n- Test command: `sleep 300`\n- Redis: localhost:1\n');
    expect(mori(['trust', 'cancel', '--yes']).code).toBe(0);
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const t = Date.now();
    const v = await verifySession(dir, { signal: abort.signal, graceMs: 300, home });
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.value.results.map((r) => [r.kind, r.status])).toEqual([
      ['command', 'skipped'],
      ['tcp', 'fail'],
    ]);
    expect(v.value.logLines[0]).toMatch(/^VERIFICATION CANCELLED - checks 0\/2 passed/);
    const log = readFileSync(path.join(dir, 'work_log.md'), 'utf8');
    expect(log.match(/VERIFICATION CANCELLED/g)).toHaveLength(1);
    // What ran is recorded by the change it answers with, handed to session.json's writer.
    expect((await offlineSessionWrite(dir, v.value.record)).ok).toBe(true);
    const json = JSON.parse(readFileSync(path.join(dir, 'session.json'), 'utf8')) as { lastVerification: { results: unknown[] } };
    expect(json.lastVerification.results).toHaveLength(2);
  });
});
