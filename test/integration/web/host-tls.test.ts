// `mori ui --tls-cert FILE --tls-key FILE` as a real process, with a self-signed certificate made here
// by openssl: the link is https://, the page is served over real TLS (verified against that
// certificate, never with checks turned off) with its strict CSP naming wss://, the link's token is
// exchanged once from the https origin only, and the control API answers over wss:// once the first
// message carries the secret. A certificate or key that cannot be read, is not PEM, does not match,
// or one flag without the other is refused before any daemon starts, naming the file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../../common/ipc.js';
import { MORI_BIN } from '../../../testkit/mori-cli.js';
import { UpHarness } from '../../support/mori-up.js';
import { until } from '../../../testkit/until.js';

let h: UpHarness;
let ui: ChildProcess | null = null;
let cert = '';
let key = '';
let otherKey = '';
/** The certificate's PEM: the only one the test's clients trust. */
let certPem = '';

/** A self-signed certificate for 127.0.0.1 (its key beside it), as a person makes one for a LAN address. */
function selfSigned(name: string): { cert: string; key: string } {
  const c = path.join(h.tmp, `${name}.crt`);
  const k = path.join(h.tmp, `${name}.key`);
  const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', k, '-out', c], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl: ${r.stderr}`);
  return { cert: c, key: k };
}

/** GET or POST over HTTPS, trusting only the test's own certificate. */
function request(url: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: o.method ?? 'GET', headers: o.headers ?? {}, ca: [certPem] }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

describe.skipIf(spawnSync('openssl', ['version']).status !== 0)('mori ui over HTTPS', () => {
  beforeAll(() => {
    h = new UpHarness('web-tls');
    ({ cert, key } = selfSigned('mori'));
    otherKey = selfSigned('other').key;
    certPem = readFileSync(cert, 'utf8');
  });
  afterAll(() => {
    ui?.kill('SIGTERM');
    h?.cleanup();
  });

  it('refuses a missing, unreadable, non-PEM or mismatched certificate or key, naming the file, before any daemon starts', () => {
    const garbage = path.join(h.tmp, 'garbage.pem');
    writeFileSync(garbage, 'not a certificate\n');
    const missing = path.join(h.tmp, 'nowhere.crt');
    const cases: { args: string[]; says: RegExp }[] = [
      { args: ['--tls-cert', missing, '--tls-key', key], says: new RegExp(`--tls-cert ${missing}: cannot read it \\(ENOENT\\)`) },
      { args: ['--tls-cert', cert, '--tls-key', h.tmp], says: new RegExp(`--tls-key ${h.tmp}: cannot read it \\(EISDIR\\)`) },
      { args: ['--tls-cert', garbage, '--tls-key', key], says: new RegExp(`--tls-cert ${garbage}: not a PEM certificate`) },
      { args: ['--tls-cert', cert, '--tls-key', garbage], says: new RegExp(`--tls-key ${garbage}: not an unencrypted PEM private key`) },
      { args: ['--tls-cert', cert, '--tls-key', otherKey], says: new RegExp(`--tls-key ${otherKey} is not the private key of the certificate in --tls-cert ${cert}`) },
      { args: ['--tls-cert', cert], says: /--tls-cert and --tls-key go together/ },
    ];
    for (const c of cases) {
      const r = h.mori('ui', '--no-open', ...c.args);
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toMatch(c.says);
      expect(r.stdout).toBe('');
    }
    // Refused before the daemon was started: no socket in the home.
    expect(existsSync(path.join(h.home, 'mori.sock'))).toBe(false);
  });

  it('serves the page, the exchange and the control API over verified HTTPS and wss with the same one-time link', async () => {
    const child = spawn(process.execPath, [MORI_BIN, 'ui', '--no-open', '--json', '--tls-cert', cert, '--tls-key', key], { cwd: h.project, env: { ...process.env, MORI_HOME: h.home, ...h.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    ui = child;
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    await until('the URL', () => out.includes('\n'), () => err);
    const url = new URL((JSON.parse(out.split('\n')[0] ?? '') as { url: string }).url);
    expect(url.protocol).toBe('https:');
    const origin = url.origin;
    const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
    expect(token.length).toBeGreaterThanOrEqual(43);

    const page = await request(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' wss://${url.host}`);
    // Plain HTTP to the HTTPS port is no way in.
    await expect(fetch(`http://${url.host}/`)).rejects.toThrow();

    const exchange = (headers: Record<string, string>): ReturnType<typeof request> => request(`${origin}/session`, { method: 'POST', headers, body: token });
    expect((await exchange({ origin: `http://${url.host}` })).status).toBe(403);
    const first = await exchange({ origin });
    expect(first.status).toBe(200);
    const secret = (JSON.parse(first.text) as { secret: string }).secret;
    expect((await exchange({ origin })).text).toMatch(/already used/);

    const reply = await new Promise<string>((resolve, reject) => {
      const ws = new WebSocket(`wss://${url.host}/api`, { headers: { origin }, ca: [certPem] });
      ws.on('error', reject);
      ws.on('open', () => {
        ws.send(JSON.stringify({ kind: 'auth', secret }));
        ws.send(JSON.stringify({ id: 1, method: 'hello', params: { protocol: PROTOCOL_VERSION, client: 'test' } }));
      });
      ws.on('message', (d) => {
        resolve(d.toString());
        ws.close();
      });
    });
    expect(JSON.parse(reply)).toMatchObject({ kind: 'reply', id: 1, ok: true });
  }, 60_000);
});
