// The daemon and the web host (DESIGN.md §10, §12), side by side in one run against a real daemon
// (`mori up --daemon`) and a real `mori ui`, 20 direct sessions in a git project:
//  - keystroke → echo of a `cat` agent, 200 keystrokes each way, rounds alternating: through the web
//    host's WebSocket p95 ≤ 1.5 × through the control socket + 5 ms;
//  - a suspend hint that checkpoints and logs all 20 running sessions answers within 1 s;
//  - attaching to a session that printed 10,000 lines gets its snapshot within 100 ms (p95 of 10).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createWebSocketApi, type WebSocketLike } from '../common/mori-api.js';
import { ControlClient } from '../main/daemon-client/control-client.js';
import { echoLatencies, Screen } from './lib/echo-screen.js';
import { ascending, percentile } from './lib/percentile.js';
import { BIN } from './lib/setup.js';

const SESSIONS = 20;
const KEYSTROKES = 200;
/** Rounds alternate socket / web host so load on the machine hits both alike. */
const ROUNDS = 4;
const SNAPSHOT_TRIES = 10;
const BUDGET = { echoRatio: 1.5, echoSlackMs: 5, suspendMs: 1_000, snapshotMs: 100 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function mori(home: string, args: string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, MORI_HOME: home }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mori ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'mori-bench-daemon-'));
  const home = path.join(tmp, 'home');
  const project = path.join(tmp, 'project');
  mkdirSync(project);
  spawnSync('git', ['-C', project, 'init', '-q']);
  const tenk = path.join(tmp, 'tenk.sh');
  writeFileSync(tenk, 'seq 1 10000\nexec cat\n');
  mori(home, ['init', project, '--name', 'echo', '--agent', 'shell', '--command', 'cat', '--backend', 'direct']);
  mori(home, ['init', project, '--name', 'tenk', '--agent', 'shell', '--command', `sh ${tenk}`, '--backend', 'direct']);
  for (let i = 2; i < SESSIONS; i++) mori(home, ['init', project, '--name', `s${i}`, '--agent', 'shell', '--command', 'cat', '--backend', 'direct']);
  const ui = spawn(process.execPath, [BIN, 'ui', '--no-open', '--json'], { env: { ...process.env, MORI_HOME: home, MORI_START_STAGGER_MS: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    let first = '';
    ui.stdout.on('data', (d: Buffer) => (first += d.toString()));
    await until('the web host', () => first.includes('\n'));
    const url = new URL((JSON.parse(first.split('\n')[0] ?? '') as { url: string }).url);
    // The page's sign-in: the link's token (in its fragment) traded once for the tab's secret.
    const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
    const signIn = await fetch(`${url.origin}/session`, { method: 'POST', headers: { origin: url.origin }, body: token });
    if (!signIn.ok) throw new Error(`sign-in refused: ${signIn.status}`);
    const secret = ((await signIn.json()) as { secret: string }).secret;

    const sock = await ControlClient.connect(home);
    if (!sock.ok) throw new Error(sock.message);
    const c = sock.value;
    for (const deadline = Date.now() + 60_000; ; ) {
      const list = await c.request('list', {});
      if (list.ok && (list.value as { state: string }[]).filter((s) => s.state === 'running').length === SESSIONS) break;
      if (Date.now() > deadline) throw new Error('the sessions did not all start');
      await sleep(100);
    }

    // --- keystroke → echo
    const sockScreen = new Screen();
    const attachClient = await ControlClient.connect(home);
    if (!attachClient.ok) throw new Error(attachClient.message);
    attachClient.value.onStream((m) => {
      if (m.kind === 'frame') {
        sockScreen.push(m.frame.data);
        if (m.frame.kind === 'output') attachClient.value.notify('ack', { chars: m.frame.data.length });
      }
    });
    const a = await attachClient.value.request('attach', { session: 'echo', cols: 120, rows: 40 });
    if (!a.ok) throw new Error(a.message);
    const open = (u: string): WebSocketLike => {
      const ws = new WebSocket(u, { headers: { origin: url.origin } });
      const like: WebSocketLike = { send: (d) => ws.send(d), close: (code, r) => ws.close(code, r), onopen: null, onmessage: null, onclose: null };
      ws.on('open', () => like.onopen?.());
      ws.on('message', (d) => like.onmessage?.(d.toString()));
      ws.on('close', (code, r) => like.onclose?.(code, r.toString()));
      ws.on('error', () => undefined);
      return like;
    };
    const api = createWebSocketApi({ url: `ws://${url.host}/api`, open, secret: () => Promise.resolve(secret) });
    const webScreen = new Screen();
    const w = await api.attach('echo', { cols: 120, rows: 40 }, { snapshot: (d) => webScreen.push(d), output: (d) => webScreen.push(d), ended: () => undefined });
    if (!w.ok) throw new Error(w.message);
    const viaSocket: number[] = [];
    const viaWeb: number[] = [];
    const per = KEYSTROKES / ROUNDS;
    for (let r = 0; r < ROUNDS; r++) {
      viaSocket.push(...(await echoLatencies((d) => attachClient.value.notify('input', { data: d }), sockScreen, per)));
      viaWeb.push(...(await echoLatencies((d) => w.value.input(d), webScreen, per)));
    }
    w.value.detach();
    api.close();
    attachClient.value.close();
    const echoSocketP95 = percentile(viaSocket, 95);
    const echoWebP95 = percentile(viaWeb, 95);
    const echoLimit = BUDGET.echoRatio * echoSocketP95 + BUDGET.echoSlackMs;

    // --- attach snapshot of a session that printed 10,000 lines
    const snapshots: number[] = [];
    for (let i = 0; i < SNAPSHOT_TRIES; i++) {
      const s = await ControlClient.connect(home);
      if (!s.ok) throw new Error(s.message);
      let got = 0;
      let text = '';
      s.value.onStream((m) => {
        if (m.kind === 'frame' && m.frame.kind === 'snapshot' && got === 0) {
          got = performance.now();
          text = m.frame.data;
        }
      });
      const t0 = performance.now();
      const r = await s.value.request('attach', { session: 'tenk', cols: 120, rows: 40 });
      if (!r.ok) throw new Error(r.message);
      await until('the snapshot', () => got > 0, 10_000);
      if (i === 0 && !text.includes('10000')) {
        i = -1; // not all printed yet: measure once it is
        s.value.close();
        await sleep(200);
        continue;
      }
      snapshots.push(got - t0);
      s.value.close();
    }
    const snapshotP95 = percentile(snapshots, 95);

    // --- suspend hint with every session running
    const t0 = performance.now();
    const suspend = await c.request('hint.power', { kind: 'suspend' });
    const suspendMs = performance.now() - t0;
    if (!suspend.ok) throw new Error(suspend.message);
    const interrupted = (suspend.value as { interrupted: number }).interrupted;
    c.close();

    const pass = echoWebP95 <= echoLimit && suspendMs <= BUDGET.suspendMs && interrupted === SESSIONS && snapshotP95 <= BUDGET.snapshotMs;
    process.stdout.write(
      JSON.stringify({
        name: 'daemon-web',
        budget: `echo via web host p95 <= ${BUDGET.echoRatio} x socket p95 + ${BUDGET.echoSlackMs} ms; suspend hint with ${SESSIONS} sessions <= ${BUDGET.suspendMs} ms; attach snapshot (10,000 lines printed) p95 <= ${BUDGET.snapshotMs} ms`,
        pass,
        keystrokes: KEYSTROKES,
        echoSocketP95Ms: +echoSocketP95.toFixed(2),
        echoWebP95Ms: +echoWebP95.toFixed(2),
        echoWebLimitMs: +echoLimit.toFixed(2),
        suspendMs: +suspendMs.toFixed(1),
        suspendInterrupted: interrupted,
        snapshotP95Ms: +snapshotP95.toFixed(2),
        snapshotMs: ascending(snapshots).map((x) => +x.toFixed(1)),
      }) + '\n',
    );
  } finally {
    ui.kill('SIGTERM');
    spawnSync(process.execPath, [BIN, 'down'], { env: { ...process.env, MORI_HOME: home } });
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
