// The soak's real Claude Code (soak/real-claude.ts): the wrapper the daemon runs for every session
// starts the real CLI in its session's project only, with the stand-in as its API, whose requests
// it digests as they arrive; a short soak of
// two fake sessions and the real one (on asking, `MORI_SOAK=1`: test/integration/soak.test.ts, in
// every suite, has the real one among its sessions but draws no network fault) hits the real
// one with agent kills and the network's faults, and it is resumed and holds every invariant.
// Real processes, tmux, ptys, signals and the real CLI against its stand-in; skipped, with why, when
// Claude Code is not installed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRealClaude, RealClaude } from '../../soak/real-claude.js';
import { runSoak } from '../../soak/runner.js';
import { FAULT_KINDS, type FaultKind } from '../../soak/schedule.js';

const installed = findRealClaude();
const skipped = 'skipped' in installed ? ` (skipped: ${installed.skipped})` : '';

/**
 * Seed 185's 12 faults among these kinds over 2 fake sessions: the real session's agent killed at
 * #2 and #6 and its group at #4 (aimAtReal), the network lost, an API outage, two daemon kills, a sleep.
 */
const SEED = 185;
const FAULTS = 12;
const KINDS: FaultKind[] = ['kill-agent', 'kill-group', 'kill-daemon', 'down-up', 'sleep', 'network', 'api-outage'];
/** Its warm-up (claude's start among them), 12 faults (a sleep and the network away for seconds), the settling bound and teardown on two loaded cores. */
const RUN_TIMEOUT_MS = 420_000;

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** An executable script that prints `word`, the API it was given and its arguments. */
function echoScript(dir: string, word: string): string {
  const file = path.join(dir, `${word}.sh`);
  writeFileSync(file, `#!/bin/sh\necho "${word} api=\${ANTHROPIC_BASE_URL:-none} $*"\n`, { mode: 0o755 });
  return file;
}

describe('the soak\'s real claude', () => {
  it('its wrapper runs the real CLI (pointed at the stand-in) in its session\'s project only, the fake agent anywhere else', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mori-soak-real-'));
    dirs.push(root);
    const real = new RealClaude(root, 2, { bin: echoScript(root, 'REAL'), exe: '/nowhere' }, echoScript(root, 'FAKE'));
    await real.start(path.join(root, 'claude'), path.join(root, 'real-home'), root);
    try {
      const run = (cwd: string): string => spawnSync(real.wrapper, ['--session-id', 'x'], { cwd, encoding: 'utf8' }).stdout.trim();
      expect(run(real.project)).toBe(`REAL api=${real.api!.url} --session-id x`);
      const other = path.join(root, 's0');
      mkdirSync(other);
      expect(run(other)).toBe('FAKE api=none --session-id x');
      expect(real.project).toBe(realpathSync(real.project));
      // What reaches its API is digested as it arrives: the turn, the text typed into it, once however often a request repeats it.
      const ask = (): Promise<string> =>
        fetch(`${real.api!.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-claude-code-session-id': 'c1' },
          body: JSON.stringify({ stream: true, tools: [{ name: 'Read' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] }),
        }).then((res) => res.text());
      expect(await ask()).toContain('"name":"Read"');
      await ask();
      expect(real.turns).toHaveLength(2);
      expect(real.typed.map((t) => t.line)).toEqual(['hello']);
      expect(readFileSync(path.join(root, 'real.jsonl'), 'utf8').match(/"event":"input"/g)).toHaveLength(1);
    } finally {
      await real.api?.stop();
    }
  });

  it('is left out with why when Claude Code is not installed', () => {
    const before = process.env['MORI_AGENT_CLIS'];
    process.env['MORI_AGENT_CLIS'] = path.join(os.tmpdir(), 'mori-no-agent-clis');
    try {
      expect(findRealClaude()).toEqual({ skipped: expect.stringContaining('Claude Code is not installed') });
    } finally {
      if (before === undefined) delete process.env['MORI_AGENT_CLIS'];
      else process.env['MORI_AGENT_CLIS'] = before;
    }
  });

  /** Run on asking (`MORI_SOAK=1`): the network's faults hold every session for seconds each. */
  describe.skipIf(process.env['MORI_SOAK'] !== '1' || 'skipped' in installed)(`a short soak with it${skipped}`, () => {
    it(`is hit by ${FAULTS} faults of seed ${SEED} (its agent killed among them), resumed, and every invariant holds`, async () => {
      const lines: string[] = [];
      const r = await runSoak({ seed: SEED, faults: FAULTS, sessions: 2, kinds: KINDS, log: (l) => lines.push(l) });
      if (r['pass'] !== true) process.stderr.write(`${lines.join('\n')}\n${JSON.stringify(r, null, 2)}\n`);
      process.stderr.write(`soak: the real claude: ${JSON.stringify(r['realClaude'])}\n`);
      expect(FAULT_KINDS).toEqual(expect.arrayContaining(KINDS));
      expect(r['skipped']).not.toHaveProperty('realClaude');
      const real = r['realClaude'] as { killsAimed: number; killsLanded: number; interrupted: number; resumed: number; turns: number; endState: string };
      expect(real.killsAimed).toBe(3);
      // A kill that found its claude (one between a kill and its relaunch finds none); one resume answers every interruption pending.
      expect(real.killsLanded).toBeGreaterThanOrEqual(1);
      expect(real.resumed).toBeGreaterThanOrEqual(1);
      expect(real.turns).toBeGreaterThan(FAULTS);
      expect(real.endState).toBe('running');
      const v = { ...(r['violations'] as Record<string, number>) };
      // A run this short reads V8's heap between collections (soak.test.ts's heldFootprint); fds are counted exactly.
      delete v['footprint'];
      expect(v).toEqual(Object.fromEntries(Object.keys(v).map((k) => [k, 0])));
      const f = r['figures'] as { fdsBefore: number; fdsAfter: number };
      expect(f.fdsAfter).toBeLessThanOrEqual(Math.ceil(f.fdsBefore * 1.1));
    }, RUN_TIMEOUT_MS);
  });
});
