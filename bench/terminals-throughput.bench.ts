// Benchmark (DESIGN.md §10, terminals): output throughput of a large text file printed by `cat`
// through the full pipeline (backend → mirror → transcript → one subscriber), each backend against
// its own baseline reading the same file in the same run:
//   direct ≥ 0.85 × raw node-pty (a bare pty that only counts what it reads);
//   tmux   ≥ 0.9 × a bare control-mode client (`tmux -C` that only reads the %output stream).
// Baseline and subject alternate, best of ROUNDS each, so load from other work on the machine
// hits both alike. MORI_BENCH_MB sets the file size (default 100 MB, as in the budget).
import { spawn as spawnChild } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { DirectBackend } from '../main/terminals/direct/direct-backend.js';
import type { ManagedTerminal } from '../main/terminals/managed-terminal.js';
import type { Terminal } from '../main/terminals/terminal.js';
import { TmuxBackend } from '../main/terminals/tmux/tmux-backend.js';
import { tmuxClientEnv } from '../main/terminals/tmux/tmux-server.js';

const FILE_MB = Number(process.env.MORI_BENCH_MB ?? 100);
/** Best of three per side: enough to shrug off a burst of load from other work on a 2-core box. */
const ROUNDS = 3;
/** tmux runs take ~4× longer (control mode is ~5× slower than a pty): two rounds keep the run near a minute. */
const TMUX_ROUNDS = 2;
const DIRECT_MIN_RATIO = 0.85;
const TMUX_MIN_RATIO = 0.9;
/** Printed after the file by the tmux runs: the end of the stream (the program then waits, so tmux never drops it). */
const END_MARKER = '__MORI_BENCH_END__';

const env = (): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tmuxClientEnv())) if (v !== undefined) out[k] = v;
  out.TERM = 'xterm-256color';
  return out;
};

/** Lines of typical agent-like text, varied so nothing compresses or caches unrealistically. */
function writeTextFile(file: string, mb: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(file);
    const words = ['const', 'value', 'return', 'function', 'await', 'result', 'error', 'test', 'passed', 'build', 'import', 'module'];
    let written = 0;
    const target = mb * 1024 * 1024;
    let i = 0;
    const pump = (): void => {
      while (written < target) {
        const parts: string[] = [];
        for (let k = 0; k < 200; k++, i++) {
          const line = `${String(i).padStart(8, '0')} ${words[i % words.length]} ${words[(i * 7) % words.length]} = ${(i * 2654435761) % 1000003} // ${words[(i * 3) % words.length]} line of output text\n`;
          parts.push(line);
        }
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

/** Raw node-pty: a pty running `cat file`, its output only counted. Resolves with seconds taken. */
function rawPty(file: string, cwd: string): Promise<{ seconds: number; chars: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let chars = 0;
    const pty = spawnPty('cat', [file], { name: 'xterm-256color', cols: 80, rows: 24, cwd, env: env() });
    pty.onData((d) => (chars += d.length));
    pty.onExit(() => resolve({ seconds: (performance.now() - started) / 1000, chars }));
  });
}

/** The direct backend's full pipeline: `cat file`, one subscriber, mirror and transcript on. */
async function directPipeline(file: string, dir: string, round: number): Promise<{ seconds: number; chars: number }> {
  const backend = new DirectBackend({ runDir: path.join(dir, 'run') });
  const started = performance.now();
  const r = await backend.spawn({ id: `bench-direct-${round}`, command: 'cat', args: [file], cwd: dir, env: env(), cols: 80, rows: 24, transcriptDir: path.join(dir, `transcript-direct-${round}`) });
  if (!r.ok) throw new Error(r.message);
  let chars = 0;
  r.value.onData((d) => (chars += d.length));
  await new Promise((resolve) => r.value.onExit(resolve));
  await (r.value as ManagedTerminal).flushTranscript();
  const seconds = (performance.now() - started) / 1000;
  await r.value.dispose();
  return { seconds, chars };
}

const tmuxProgram = (file: string): string => `read x; cat '${file}'; printf '\\n${END_MARKER}\\n'; read y`;

/** A bare control-mode client: attaches, starts the program, reads %output until the end marker. */
async function bareControlClient(backend: TmuxBackend, file: string, dir: string, round: number): Promise<{ seconds: number; bytes: number }> {
  const name = `bare-${round}`;
  const created = await backend.server.run(['new-session', '-d', '-s', name, '-x', '80', '-y', '24', '-c', dir, '--', 'sh', '-c', tmuxProgram(file)]);
  if (created.code !== 0) throw new Error(created.stderr);
  const child = spawnChild(backend.server.tmuxPath, [...backend.server.baseArgs(), '-C', 'attach-session', '-t', `=${name}`], { env: tmuxClientEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdout.setEncoding('latin1');
  let bytes = 0;
  let started = 0;
  let tail = '';
  let attached = false;
  const done = new Promise<number>((resolve) => {
    child.stdout.on('data', (chunk: string) => {
      if (!attached && chunk.includes('%session-changed')) {
        attached = true;
        started = performance.now();
        child.stdin.write(`send-keys -t =${name}: Enter\n`);
      }
      bytes += chunk.length;
      const window = tail + chunk;
      if (started > 0 && window.includes(END_MARKER)) resolve(performance.now());
      tail = window.slice(-64);
    });
  });
  const ended = await done;
  child.stdin.end('\n');
  await backend.server.run(['kill-session', '-t', `=${name}`]);
  return { seconds: (ended - started) / 1000, bytes };
}

/** The tmux backend's full pipeline: the same program, one subscriber watching for the end marker. */
async function tmuxPipeline(backend: TmuxBackend, file: string, dir: string, round: number): Promise<{ seconds: number; chars: number }> {
  const r = await backend.spawn({ id: `bench-tmux-${round}`, command: 'sh', args: ['-c', tmuxProgram(file)], cwd: dir, env: env(), cols: 80, rows: 24, transcriptDir: path.join(dir, `transcript-tmux-${round}`) });
  if (!r.ok) throw new Error(r.message);
  const t: Terminal = r.value;
  let chars = 0;
  let tail = '';
  let started = 0;
  const done = new Promise<void>((resolve) => {
    t.onData((d) => {
      chars += d.length;
      const window = tail + d;
      if (started > 0 && window.includes(END_MARKER)) resolve();
      tail = window.slice(-64);
    });
  });
  started = performance.now();
  t.write('\r');
  // The end marker reached the subscriber; the run ends once the transcript holds it all too.
  await done;
  await (t as ManagedTerminal).flushTranscript();
  const seconds = (performance.now() - started) / 1000;
  await t.kill();
  await t.dispose();
  return { seconds, chars };
}

const best = (xs: number[]): number => Math.min(...xs);
const mbps = (bytes: number, seconds: number): number => Number((bytes / (1024 * 1024) / seconds).toFixed(1));

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mori-bench-throughput-'));
  const tmux = new TmuxBackend({ socketName: `mori-bench-${process.pid}`, useSystemdScope: false });
  try {
    const file = path.join(dir, 'output.txt');
    await writeTextFile(file, FILE_MB);
    const fileBytes = statSync(file).size;
    const raw: number[] = [];
    const direct: number[] = [];
    let directChars = 0;
    let rawChars = 0;
    await rawPty(file, dir); // warms the page cache and node-pty's native module
    for (let round = 0; round < ROUNDS; round++) {
      const a = await rawPty(file, dir);
      raw.push(a.seconds);
      rawChars = a.chars;
      const b = await directPipeline(file, dir, round);
      direct.push(b.seconds);
      directChars = b.chars;
      rmSync(path.join(dir, `transcript-direct-${round}`), { recursive: true, force: true });
    }
    const tmuxFound = await tmux.detect();
    const bare: number[] = [];
    const piped: number[] = [];
    let tmuxChars = 0;
    if (tmuxFound.available) {
      for (let round = 0; round < TMUX_ROUNDS; round++) {
        bare.push((await bareControlClient(tmux, file, dir, round)).seconds);
        const p = await tmuxPipeline(tmux, file, dir, round);
        piped.push(p.seconds);
        tmuxChars = p.chars;
        rmSync(path.join(dir, `transcript-tmux-${round}`), { recursive: true, force: true });
      }
    }
    const rawMBps = mbps(fileBytes, best(raw));
    const directMBps = mbps(fileBytes, best(direct));
    const bareMBps = bare.length ? mbps(fileBytes, best(bare)) : null;
    const tmuxMBps = piped.length ? mbps(fileBytes, best(piped)) : null;
    const directRatio = Number((best(raw) / best(direct)).toFixed(2));
    const tmuxRatio = bare.length ? Number((best(bare) / best(piped)).toFixed(2)) : null;
    const complete = directChars >= fileBytes && rawChars >= fileBytes && (!bare.length || tmuxChars >= fileBytes);
    process.stdout.write(
      JSON.stringify({
        name: 'terminals-throughput',
        budget: `direct pipeline >= ${DIRECT_MIN_RATIO}x raw node-pty; tmux pipeline >= ${TMUX_MIN_RATIO}x a bare tmux -C reader (${FILE_MB} MB of text via cat)`,
        pass: complete && directRatio >= DIRECT_MIN_RATIO && (tmuxRatio === null || tmuxRatio >= TMUX_MIN_RATIO),
        fileMB: FILE_MB,
        rounds: { direct: ROUNDS, tmux: TMUX_ROUNDS },
        rawPtyMBps: rawMBps,
        directPipelineMBps: directMBps,
        directRatio,
        bareControlClientMBps: bareMBps,
        tmuxPipelineMBps: tmuxMBps,
        tmuxRatio,
        tmux: tmuxFound.available ? tmuxFound.version : `unavailable: ${tmuxFound.reason}`,
        allOutputDelivered: complete,
      }) + '\n',
    );
  } finally {
    await tmux.server.killServer();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
