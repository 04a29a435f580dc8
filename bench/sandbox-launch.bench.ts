// Benchmark (DESIGN.md §11 "Sandbox"): what the sandbox costs a session, measured against the same
// work without it in the same run.
//   launch: a shell agent through the direct backend, from the launch's start (the sandbox's command
//   line built, the pty spawned) to its first output; sandboxed with `full` network ≤ 50 ms more per
//   launch than unsandboxed (the median of each round's difference). `allowlist` is reported beside it
//   and not budgeted: each launch starts the Node bridge in front of the agent (~a Node start), and a
//   session's first launch its proxy (measured once).
//   throughput: the direct pipeline (pty → mirror → transcript → one subscriber) reading a large text
//   file by `cat` inside the sandbox ≥ 0.95 × the same outside (the median of alternating pairs).
// Runs each order alternately, so neither side always runs on the other's leftovers. Linux with a
// working bwrap only; elsewhere it says so and passes nothing.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_DEFAULTS } from '../common/daemon-settings.js';
import type { SessionSandbox } from '../common/session.js';
import { shellProfile } from '../main/agents/shell/profile.js';
import { sandboxedCommand } from '../main/supervisor/launch/sandbox-launch.js';
import { SessionNetProxies } from '../main/supervisor/launch/sandbox-network.js';
import { DirectBackend } from '../main/terminals/direct/direct-backend.js';
import type { ManagedTerminal } from '../main/terminals/managed-terminal.js';
import { benchDir, BIN } from './lib/setup.js';
import { median } from './lib/percentile.js';

/** Launch rounds: each one launch of every kind; ~0.1–0.3 s a launch keeps this part under 20 s. */
const LAUNCH_ROUNDS = 15;
const LAUNCH_BUDGET_MS = 50;
/** Throughput pairs: 50 MB reads in ~1 s a side here. */
const THROUGHPUT_PAIRS = 7;
const FILE_MB = Number(process.env['MORI_BENCH_MB'] ?? 50);
const THROUGHPUT_MIN_RATIO = 0.95;

type Kind = 'none' | 'full' | 'allowlist';

const dir = benchDir('sandbox');
const project = path.join(dir, 'project');
const stateDir = path.join(project, '.mori', 'bench');
const moriHome = path.join(dir, 'mori-home');
mkdirSync(stateDir, { recursive: true });
mkdirSync(moriHome, { recursive: true, mode: 0o700 });
const env: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: path.join(dir, 'user-home'), TERM: 'xterm-256color' };
mkdirSync(env['HOME'] as string, { recursive: true });
const proxies = new SessionNetProxies(moriHome, { execPath: process.execPath, entry: BIN, env: process.env });
const backend = new DirectBackend({ runDir: path.join(dir, 'run') });
const SESSION_ID = '00000000-0000-4000-8000-00000000b0b0';

const sandboxOf = (kind: Kind): SessionSandbox | undefined => (kind === 'none' ? undefined : { on: true, network: kind, home: 'read-only' });

/** The command line a launch of `kind` spawns (the sandbox's built as the supervisor builds it). */
async function line(kind: Kind, command: string, args: string[]): Promise<{ command: string; args: string[]; env: Record<string, string> }> {
  const r = await sandboxedCommand({
    ...{ sessionId: SESSION_ID, session: sandboxOf(kind), settings: SANDBOX_DEFAULTS, profile: shellProfile, workDir: project, stateDir, moriHome, hooks: null },
    ...{ env, bwrap: 'bwrap', command, args, proxies },
  });
  if (!r.ok) throw new Error(`${kind}: ${r.message}`);
  return r.value;
}

/** Milliseconds from the launch's start to the agent's first output. */
async function launch(kind: Kind, round: number): Promise<number> {
  const started = performance.now();
  const l = await line(kind, 'sh', ['-c', 'echo ready; exec sleep 60']);
  const r = await backend.spawn({ id: `launch-${kind}-${round}`, command: l.command, args: l.args, cwd: project, env: { ...env, ...l.env }, cols: 80, rows: 24, transcriptDir: path.join(dir, 'tr', `${kind}-${round}`) });
  if (!r.ok) throw new Error(r.message);
  await new Promise<void>((resolve) => r.value.onData((d) => d.includes('ready') && resolve()));
  const ms = performance.now() - started;
  await r.value.kill();
  await r.value.dispose();
  return ms;
}

/** Seconds the direct pipeline takes to deliver `cat file` (mirror and transcript on), in or out of the sandbox. */
async function pipeline(kind: Kind, file: string, round: number): Promise<{ seconds: number; chars: number }> {
  const l = await line(kind, 'cat', [file]);
  const started = performance.now();
  const transcriptDir = path.join(dir, 'tr', `cat-${kind}-${round}`);
  const r = await backend.spawn({ id: `cat-${kind}-${round}`, command: l.command, args: l.args, cwd: project, env: { ...env, ...l.env }, cols: 80, rows: 24, transcriptDir });
  if (!r.ok) throw new Error(r.message);
  let chars = 0;
  r.value.onData((d) => (chars += d.length));
  await new Promise((resolve) => r.value.onExit(resolve));
  await (r.value as ManagedTerminal).flushTranscript();
  const seconds = (performance.now() - started) / 1000;
  await r.value.dispose();
  rmSync(transcriptDir, { recursive: true, force: true });
  return { seconds, chars };
}

/** Lines of agent-like text, varied so nothing compresses or caches unrealistically. */
function writeTextFile(file: string, mb: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    const words = ['const', 'value', 'return', 'function', 'await', 'result', 'error', 'test', 'passed', 'build'];
    let written = 0;
    let i = 0;
    const pump = (): void => {
      while (written < mb * 1024 * 1024) {
        const parts: string[] = [];
        for (let k = 0; k < 200; k++, i++) parts.push(`${String(i).padStart(8, '0')} ${words[i % words.length]} = ${(i * 2654435761) % 1000003} // ${words[(i * 3) % words.length]} line of output\n`);
        const chunk = parts.join('');
        written += chunk.length;
        if (!out.write(chunk)) return void out.once('drain', pump);
      }
      out.end(resolve);
    };
    out.on('error', reject);
    pump();
  });
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  try {
    execFileSync('bwrap', ['--unshare-pid', '--ro-bind', '/', '/', '--proc', '/proc', '--', 'true'], { stdio: 'ignore' });
  } catch {
    process.stdout.write(`${JSON.stringify({ name: 'sandbox-launch', budget: 'needs bwrap', pass: false, skipped: 'bwrap cannot make a sandbox here' })}\n`);
    return;
  }
  // The session's proxy started once (a session's first allowlist launch), kept for every launch after.
  const proxyStart = performance.now();
  const proxy = await proxies.ensure(SESSION_ID, ['127.0.0.1:9']);
  if (!proxy.ok) throw new Error(proxy.message);
  const proxyStartMs = round1(performance.now() - proxyStart);
  // Warm-up: node-pty's native module, bwrap and the bridge's first runs.
  for (const kind of ['none', 'full', 'allowlist'] as const) await launch(kind, -1);
  const ms: Record<Kind, number[]> = { none: [], full: [], allowlist: [] };
  const orders: Kind[][] = [['none', 'full', 'allowlist'], ['allowlist', 'full', 'none']];
  for (let round = 0; round < LAUNCH_ROUNDS; round++) for (const kind of orders[round % 2] as Kind[]) ms[kind].push(await launch(kind, round));
  const fullExtra = ms.full.map((x, i) => x - (ms.none[i] as number));
  const allowlistExtra = ms.allowlist.map((x, i) => x - (ms.none[i] as number));

  const file = path.join(project, 'output.txt');
  await writeTextFile(file, FILE_MB);
  execFileSync('sync');
  const bytes = statSync(file).size;
  await pipeline('none', file, -1);
  await pipeline('full', file, -1);
  let complete = true;
  const ratios: number[] = [];
  const best = { none: Infinity, full: Infinity };
  for (let pair = 0; pair < THROUGHPUT_PAIRS; pair++) {
    const order: ('none' | 'full')[] = pair % 2 === 0 ? ['none', 'full'] : ['full', 'none'];
    const s: Record<string, number> = {};
    for (const kind of order) {
      const r = await pipeline(kind, file, pair);
      if (r.chars < bytes) complete = false;
      s[kind] = r.seconds;
      best[kind] = Math.min(best[kind], r.seconds);
    }
    ratios.push(Math.round(((s['none'] as number) / (s['full'] as number)) * 100) / 100);
  }
  const ratio = median(ratios);
  const launchExtraMs = round1(median(fullExtra));
  const mbps = (seconds: number): number => round1(bytes / (1024 * 1024) / seconds);
  process.stdout.write(
    `${JSON.stringify({
      name: 'sandbox-launch',
      budget: `a sandboxed launch (full network) to its first output <= ${LAUNCH_BUDGET_MS} ms more than without (median of ${LAUNCH_ROUNDS} rounds' differences); the direct pipeline inside the sandbox >= ${THROUGHPUT_MIN_RATIO}x outside (${FILE_MB} MB via cat, median of ${THROUGHPUT_PAIRS} alternating pairs). allowlist is reported, not budgeted: each launch starts a Node bridge`,
      pass: complete && launchExtraMs <= LAUNCH_BUDGET_MS && ratio >= THROUGHPUT_MIN_RATIO,
      launchMs: { none: round1(median(ms.none)), full: round1(median(ms.full)), allowlist: round1(median(ms.allowlist)) },
      launchExtraMs,
      allowlistExtraMs: round1(median(allowlistExtra)),
      allowlistOverBudget: median(allowlistExtra) > LAUNCH_BUDGET_MS,
      proxyStartMs,
      throughputRatio: ratio,
      throughputPairRatios: ratios,
      outsideMBps: mbps(best.none),
      insideMBps: mbps(best.full),
      allOutputDelivered: complete,
    })}\n`,
  );
}

try {
  await main();
} finally {
  await proxies.stop(SESSION_ID);
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
