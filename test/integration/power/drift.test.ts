// The drift detector for real: a child Node process runs PowerWatch on the system clocks, is frozen
// with SIGSTOP for ~7 s and continued; it must report one suspend/resume pair with sleptMs ≈ 7 s.
// Runs the compiled JavaScript (out/cli, built by test/support/global-setup.ts), as `mori up` does.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const watchModule = pathToFileURL(`${root}out/cli/main/power/power-watch.js`).href;

/** Prints every power event as a JSON line; stays up on a ref'd timer (the watch's own timers are unref'd). */
const childScript = `
import { createPowerWatch } from ${JSON.stringify(watchModule)};
const watch = createPowerWatch({ targets: [] });
for (const type of ['power.suspend', 'power.resume']) watch.on(type, (e) => console.log(JSON.stringify({ type, ...e })));
setInterval(() => {}, 60_000);
console.log(JSON.stringify({ type: 'ready', at: Date.now() }));
`;

let child: ChildProcess | null = null;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  child = null;
});

interface Line {
  type: string;
  at: number;
  sleptMs?: number;
  source?: string;
}

/** Collects the child's JSON lines; `next` waits (bounded) for a line of a given type. */
function lines(proc: ChildProcess) {
  const seen: Line[] = [];
  const wakers = new Set<() => void>();
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    seen.push(JSON.parse(text) as Line);
    for (const w of [...wakers]) w();
  });
  const next = async (type: string, timeoutMs: number): Promise<Line> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = seen.find((l) => l.type === type);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no ${type} within ${timeoutMs} ms; saw ${JSON.stringify(seen)}`);
      // Woken by the next line, or after 100 ms to re-check the deadline.
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          wakers.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 100);
        wakers.add(wake);
      });
    }
  };
  return { seen, next };
}

it('reports a SIGSTOP of ~7 s as one suspend/resume pair with sleptMs ≈ 7 s', { timeout: 60_000 }, async () => {
  child = spawn(process.execPath, ['--input-type=module', '-e', childScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  const out = lines(child);
  await out.next('ready', 20_000);
  // Let the detector take a couple of on-time ticks first.
  await sleep(2_500);
  expect(out.seen.filter((l) => l.type !== 'ready')).toEqual([]);

  const stoppedAt = Date.now();
  child.kill('SIGSTOP');
  // The freeze itself is what is under test: it has to last this long.
  await sleep(7_000);
  child.kill('SIGCONT');
  const continuedAt = Date.now();

  const resume = await out.next('power.resume', 10_000);
  const suspend = out.seen.find((l) => l.type === 'power.suspend');
  expect(suspend).toBeDefined();
  expect(suspend!.source).toBe('drift');
  expect(resume.source).toBe('drift');
  // Backdated to the last good tick: at most one tick (plus scheduling slack) before the stop.
  expect(suspend!.at).toBeLessThanOrEqual(stoppedAt + 50);
  expect(suspend!.at).toBeGreaterThan(stoppedAt - 2_000);
  expect(resume.at).toBeGreaterThanOrEqual(continuedAt - 50);
  const frozenMs = continuedAt - stoppedAt;
  expect(resume.sleptMs).toBe(resume.at - suspend!.at);
  expect(resume.sleptMs).toBeGreaterThanOrEqual(frozenMs - 100);
  expect(resume.sleptMs).toBeLessThanOrEqual(frozenMs + 2_500);

  // Running on: exactly one pair, no echo.
  await sleep(2_500);
  expect(out.seen.filter((l) => l.type.startsWith('power.')).map((l) => l.type)).toEqual(['power.suspend', 'power.resume']);
});
