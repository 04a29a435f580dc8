// The window over HTTPS, as a phone on a LAN or tailnet reaches it: a real `mori ui --tls-cert F
// --tls-key F` with a self-signed certificate made here by openssl, in Debian's Chromium on a
// 390×844 touch screen. The printed link is https://; the page trades its one-time token over TLS,
// speaks to the daemon over wss:// (the page's own choice for an https page, under the CSP the host
// sends), lists the sessions and shows a session's live terminal, and again after a reload. Chromium is told to accept the
// test's certificate (ignoreHTTPSErrors); that the host's TLS verifies against its certificate is
// test/integration/web/host-tls.test.ts's.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, CHROMIUM, PHONE, PHONE_VIEWPORT, WindowHarness } from '../support/window-harness.js';

let w: WindowHarness;

describe.skipIf((!existsSync(CHROMIUM) && !process.env['CI']) || spawnSync('openssl', ['version']).status !== 0)('the window over HTTPS in Chromium', () => {
  beforeAll(async () => {
    await buildRenderer();
    w = new WindowHarness('window-https', PHONE_VIEWPORT, {}, { ...PHONE, ignoreHTTPSErrors: true });
    const cert = path.join(w.h.tmp, 'desk.crt');
    const key = path.join(w.h.tmp, 'desk.key');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    w.uiArgs.push('--tls-cert', cert, '--tls-key', key);
    w.h.init('phone', 'direct');
    await w.start();
  }, 90_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('opens from the https link and shows a session live over wss', async () => {
    const { page } = w;
    expect(new URL(w.url).protocol).toBe('https:');
    expect(new URL(page.url()).protocol).toBe('https:');
    const list = page.getByRole('listbox', { name: 'Sessions' });
    await expect.poll(() => list.getByRole('option', { name: /phone/ }).innerText(), { timeout: 25_000 }).toMatch(/waiting/);
    await list.getByRole('option', { name: /phone/ }).tap();
    await page.getByRole('region', { name: 'Terminal' }).getByText('? for shortcuts').filter({ visible: true }).last().waitFor({ timeout: 25_000 });
    expect(w.consoleErrors).toEqual([]);
  });

  it('keeps working after a reload, its WebSockets wss:// to the same host', async () => {
    const { page } = w;
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.reload();
    await page.getByRole('region', { name: 'Terminal' }).getByText('? for shortcuts').filter({ visible: true }).last().waitFor({ timeout: 25_000 });
    expect(sockets.length).toBeGreaterThan(0);
    expect(sockets.filter((u) => !u.startsWith(`wss://${new URL(w.url).host}/api`))).toEqual([]);
    expect(w.consoleErrors).toEqual([]);
  });
});
