// Benchmark (DESIGN.md §10, verification): 50 tcp/http checks against loopback must finish within
// 2× the slowest single check, i.e. the runner really runs them side by side. The HTTP server answers
// after a fixed delay so a single check has a measurable, known cost; the same checks run one at a
// time give the sequential baseline in the same run.
import http from 'node:http';
import net from 'node:net';
import type { CheckSpec } from '../common/checks.js';
import { runChecks, type RunContext } from '../main/checks/run-checks.js';

/** Long enough to dominate scheduling noise on a loaded 2-core machine, short enough to keep the run brief. */
const RESPONSE_DELAY_MS = 200;
const TOTAL = 50;
const SINGLE_RUNS = 5;

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

const spec = (kind: 'tcp' | 'http', target: string, i: number): CheckSpec => ({
  id: `${kind}:${target}#${i}`,
  kind,
  target,
  label: null,
  timeoutMs: 5000,
  source: { file: 'environment.md', line: i + 1 },
  service: null,
});

async function main(): Promise<void> {
  const httpServer = http.createServer((_req, res) => setTimeout(() => res.writeHead(200).end('ok'), RESPONSE_DELAY_MS));
  const tcpServer = net.createServer((s) => s.destroy());
  const httpPort = await listen(httpServer);
  const tcpPort = await listen(tcpServer);
  const ctx: RunContext = { projectDir: process.cwd(), trusted: true, pidBoots: {}, bootId: 'bench' };
  const checks = Array.from({ length: TOTAL }, (_, i) =>
    i % 2 === 0 ? spec('http', `http://localhost:${httpPort}/health?n=${i}`, i) : spec('tcp', `localhost:${tcpPort}`, i),
  );

  // Warm up (JIT, DNS cache of `localhost`), then the slowest of several single http checks.
  await runChecks(checks.slice(0, 2), ctx);
  let slowestSingle = 0;
  for (let i = 0; i < SINGLE_RUNS; i++) {
    const t = performance.now();
    const [r] = await runChecks([checks[0]!], ctx);
    if (r?.status !== 'pass') throw new Error(`single check failed: ${r?.detail}`);
    slowestSingle = Math.max(slowestSingle, performance.now() - t);
  }

  const t0 = performance.now();
  const all = await runChecks(checks, ctx);
  const concurrentMs = performance.now() - t0;
  const failed = all.filter((r) => r.status !== 'pass');

  const t1 = performance.now();
  await runChecks(checks, { ...ctx, probeConcurrency: 1 });
  const sequentialMs = performance.now() - t1;

  httpServer.closeAllConnections();
  httpServer.close();
  tcpServer.close();

  const ratio = concurrentMs / slowestSingle;
  process.stdout.write(
    JSON.stringify({
      name: 'checks-concurrency',
      budget: `${TOTAL} tcp/http checks on loopback finish within 2x the slowest single check`,
      pass: failed.length === 0 && ratio <= 2,
      checks: TOTAL,
      failed: failed.length,
      slowestSingleMs: Math.round(slowestSingle),
      concurrentMs: Math.round(concurrentMs),
      ratioToSlowestSingle: Math.round(ratio * 100) / 100,
      sequentialMs: Math.round(sequentialMs),
      speedupOverSequential: Math.round((sequentialMs / concurrentMs) * 10) / 10,
    }) + '\n',
  );
}

await main();
