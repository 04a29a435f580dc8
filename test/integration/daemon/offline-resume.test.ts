// A session that goes running while the network is down (DESIGN.md §8): its agent is started again
// meanwhile (a crash's restart, here), fails its requests and ends on its API error. It is held as
// interrupted(network) like the sessions the loss found running, so the network's return resumes it
// (its agent nudged off the error) instead of leaving it at its error. A real `mori up`, the probe
// target and the agent's API a loopback listener each (soak/stand-ins.ts), the fake agent in its
// soak mode (its turns call the API, its retries run out, its record says what it did).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { NetStandIns } from '../../../soak/stand-ins.js';
import { until } from '../../../testkit/until.js';
import { hasEvent, UpHarness } from '../../support/mori-up.js';

/** The agent's countdown between attempts: its five retries run out in a second and a half. */
const RETRY_MS = 300;
/** Its turns: short, so it has written lines before the network goes. */
const TURN_MS = 300;

let h: UpHarness | null = null;
let net: NetStandIns | null = null;
afterEach(async () => {
  h?.cleanup();
  h = null;
  await net?.stop();
  net = null;
});

interface Rec {
  event: string;
  pid: number;
  at: number;
}

it('a session started again while the network is down is held for the network, and its agent nudged off its API error once it returns', async () => {
  net = new NetStandIns();
  await net.start();
  h = new UpHarness('offline', { ...net.env(), MORI_PROBE_INTERVAL_MS: '1000' });
  const records = path.join(h.tmp, 'records');
  mkdirSync(records);
  Object.assign(h.env, { FAKE_AGENT_SOAK_DIR: records, FAKE_AGENT_SOAK_TURN_MS: String(TURN_MS), FAKE_AGENT_SOAK_RETRY_MS: String(RETRY_MS) });
  const recs = (): Rec[] => {
    try {
      return readFileSync(path.join(records, 'project.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Rec);
    } catch {
      return [];
    }
  };
  h.init('of', 'direct');
  const u = h.up();
  await until('a line of the agent', () => recs().some((r) => r.event === 'line'), u.stderr);

  await net.away(['probe', 'api']);
  await until('interrupted for the network', () => hasEvent(u, 'session.interrupted', { reason: 'network' }), u.stderr);
  // The agent crashes while the network is down: Mori starts it again, and it meets the loss.
  const first = h.starts()[0]!.pid;
  process.kill(first, 'SIGKILL');
  await until('the agent started again', () => h!.starts().length === 2, u.stderr);
  const second = h.starts()[1]!.pid;
  const gaveUp = (): boolean => recs().filter((r) => r.event === 'api-failed' && r.pid === second).length > 5;
  await until('its retries run out (its API error at the prompt)', gaveUp, u.stderr);
  await until('held for the network', () => u.lines().filter((e) => e['type'] === 'session.interrupted' && e['reason'] === 'network').length === 2, u.stderr);

  const back = Date.now();
  await net.back(['probe', 'api']);
  await until('online', () => hasEvent(u, 'network.online'), u.stderr);
  await until('a line of the agent started while offline, after the return', () => recs().some((r) => r.event === 'line' && r.pid === second && r.at > back), u.stderr);
  expect(h.starts()).toHaveLength(2);
  const log = h.workLog('of');
  expect(log.match(/SESSION INTERRUPTED - network lost/g)).toHaveLength(2);
  expect(log).toMatch(/SESSION RESUMED - network lost \(away \d+s\); [^\n]*agent still running, error: nudged to continue/);
}, 120_000);
