// Network reachability for real: probes a loopback TCP server the test stops and starts, through
// MORI_PROBE, with the production thresholds and intervals and hints for speed. One offline, one
// online, nothing more. Also: the probe's DNS stage, and a disposed watch lets its process exit.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { NetworkOfflineEvent, NetworkOnlineEvent } from '../../../common/power.js';
import { createPowerWatch, type PowerWatch } from '../../../main/power/power-watch.js';
import { probeAny, probeTarget } from '../../../main/power/tcp-probe.js';
import { until as waitUntil } from '../../../testkit/until.js';

const servers: Server[] = [];
let watch: PowerWatch | null = null;
afterEach(async () => {
  watch?.dispose();
  watch = null;
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function listen(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      servers.push(server);
      resolve(server);
    });
  });
}

const portOf = (s: Server): number => (s.address() as { port: number }).port;
const close = (s: Server): Promise<void> => new Promise((r) => s.close(() => r()));

/** A port nothing listens on: bound once, then released. */
async function deadPort(): Promise<number> {
  const s = await listen();
  const port = portOf(s);
  await close(s);
  servers.splice(servers.indexOf(s), 1);
  return port;
}

const until = (what: string, cond: () => boolean, timeoutMs: number): Promise<void> => waitUntil(what, cond, undefined, timeoutMs);

it('goes offline once when the target stops, online once when it is back, without flapping', { timeout: 90_000 }, async () => {
  let server = await listen();
  const port = portOf(server);
  const dead = await deadPort();
  const events: Array<{ type: 'offline'; e: NetworkOfflineEvent } | { type: 'online'; e: NetworkOnlineEvent }> = [];
  // Two targets: online means any is reachable, so the dead one alone never makes it offline.
  watch = createPowerWatch({ env: { MORI_PROBE: `localhost:${port},127.0.0.1:${dead}` } });
  watch.on('network.offline', (e) => events.push({ type: 'offline', e }));
  watch.on('network.online', (e) => events.push({ type: 'online', e }));

  await expect(watch.waitForOnline(10_000)).resolves.toBe(true);
  expect(watch.network).toBe('online');

  await close(server);
  servers.splice(servers.indexOf(server), 1);
  const stoppedAt = Date.now();
  watch.hint(); // as Electron's offline event would
  await until('network.offline', () => events.length > 0, 20_000);
  expect(events[0]!.type).toBe('offline');
  const offline = events[0]!.e as NetworkOfflineEvent;
  expect(offline.since).toBeGreaterThanOrEqual(stoppedAt - 50);
  // Three failed rounds: a hint may add one right after a round, the rest are a confirm interval apart.
  expect(offline.at - offline.since).toBeGreaterThanOrEqual(1_900);
  expect(offline.detail).toContain(`localhost:${port} tcp ECONNREFUSED`);
  expect(offline.detail).toContain(`127.0.0.1:${dead} tcp ECONNREFUSED`);
  expect(watch.network).toBe('offline');
  await expect(watch.waitForOnline(300)).resolves.toBe(false);

  // Stays down across several offline rounds: still exactly one event.
  await sleep(6_000);
  expect(events.map((e) => e.type)).toEqual(['offline']);

  server = await listen(port);
  const backAt = Date.now();
  const waiting = watch.waitForOnline(30_000); // probes at once, like a hint
  await until('network.online', () => events.length > 1, 20_000);
  await expect(waiting).resolves.toBe(true);
  const online = events[1]!;
  expect(online.type).toBe('online');
  expect((online.e as NetworkOnlineEvent).offlineMs).toBeGreaterThanOrEqual(backAt - offline.since - 50);
  expect(online.e.at - backAt).toBeGreaterThanOrEqual(1_500); // held for two rounds

  // Steady again: nothing more.
  watch.hint();
  await sleep(3_000);
  expect(events.map((e) => e.type)).toEqual(['offline', 'online']);
  expect(watch.network).toBe('online');
});

it('probes report the stage that failed', async () => {
  const dead = await deadPort();
  const refused = await probeTarget({ host: '127.0.0.1', port: dead }, { timeoutMs: 4_000 });
  expect(refused).toMatchObject({ ok: false, stage: 'tcp', code: 'ECONNREFUSED' });
  // The .invalid top-level domain never resolves (RFC 6761); offline DNS fails too, either way at the DNS stage.
  const nx = await probeTarget({ host: 'mori-probe.invalid', port: 443 }, { timeoutMs: 4_000 });
  expect(nx).toMatchObject({ ok: false, stage: 'dns' });
  const server = await listen();
  const any = await probeAny(
    [
      { host: 'mori-probe.invalid', port: 443 },
      { host: '127.0.0.1', port: portOf(server) },
    ],
    { timeoutMs: 4_000 },
  );
  expect(any.ok).toBe(true);
  // Cancelled from outside: answers at once as a failure.
  const controller = new AbortController();
  controller.abort();
  await expect(probeAny([{ host: '127.0.0.1', port: portOf(server) }], { timeoutMs: 4_000, signal: controller.signal })).resolves.toMatchObject({ ok: false });
});

/**
 * A loopback port whose accept queue is full: the kernel drops further SYNs, so a connect to it
 * hangs (as to a host behind a dead link) instead of being refused. Held by a python3 process.
 */
async function hangingPort(): Promise<{ port: number; stop: () => void }> {
  const py = [
    'import socket, time',
    's = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)',
    'port = s.getsockname()[1]',
    'fill = []',
    'for _ in range(4):',
    '    c = socket.socket(); c.setblocking(False)',
    '    try: c.connect(("127.0.0.1", port))',
    '    except BlockingIOError: pass',
    '    fill.append(c)',
    'print(port, flush=True)',
    'time.sleep(120)',
  ].join('\n');
  const proc = spawn('python3', ['-c', py], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    proc.once('exit', () => reject(new Error('python3 listener exited')));
  });
  return { port, stop: () => proc.kill('SIGKILL') };
}

it('a disposed watch cancels its probe in flight and leaves nothing that keeps the process alive', { timeout: 30_000 }, async () => {
  const hang = await hangingPort();
  try {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const watchModule = pathToFileURL(`${root}out/cli/main/power/power-watch.js`).href;
    // No exit call: the process must end by itself once the watch is disposed, though the first
    // probe round (started at creation) is still waiting for a handshake that will not come.
    const script = `
      import { createPowerWatch } from ${JSON.stringify(watchModule)};
      const watch = createPowerWatch({ env: { MORI_PROBE: '127.0.0.1:${hang.port}' } });
      setTimeout(() => {
        watch.dispose();
        console.log(JSON.stringify({ disposedAt: Date.now(), network: watch.network }));
      }, 300);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exitedAt = await new Promise<number>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(Number.POSITIVE_INFINITY);
      }, 20_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(Date.now());
      });
    });
    const { disposedAt, network } = JSON.parse(out) as { disposedAt: number; network: string };
    expect(network).toBe('unknown');
    // A probe left running would hold the process for its 4 s timeout.
    expect(exitedAt - disposedAt).toBeLessThan(2_000);
  } finally {
    hang.stop();
  }
});
