// The real Claude Code at its usage limit waited out under a real `mori up`, one order of going on
// after the reset per call (MORI_LIMIT_JITTER_SLOT): the set-up both orders share, each order its own
// test file (test/integration/agents/real-limit-claude-*-first.test.ts) so the two waits of up to two
// minutes each run side by side rather than one after the other. Runs in the tests' process.
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import { UpHarness } from './mori-up.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, installedAgentCli, seedClaudeConfig } from '../../testkit/real-claude.js';
import { endHarness, limitRoundTrip } from './real-limit-round-trip.js';
import { MessagesApiStandIn, messageTexts } from '../../testkit/messages-api.js';

export const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
export { CLAUDE_CODE_PACKAGE };
const REPLY = 'stand-in reply';
/** A claude.ai OAuth token in the form `claude setup-token` prints; only the stand-in ever sees it. */
const STAND_IN_OAUTH_TOKEN = 'sk-ant-oat01-mori-stand-in';
/** Claude Code 2.1.332 continues at its first 30 s tick after the reset plus 30–90 s: within 120 s. */
export const CLAUDE_OWN_WAIT_MS = 120_000;
/** Mori's jitter after the reset: its last slot (128 s) lies after Claude's latest tick, its first is the reset. */
export const JITTER_MS = 130_000;

let h: UpHarness | null = null;
let api: MessagesApiStandIn | null = null;
/** Ends the harness and the stand-in after each test of the file that calls it. */
export function endEachTest(): void {
  afterEach(async () => {
    await endHarness(h);
    h = null;
    await api?.stop();
    api = null;
  });
}

export async function waitedOut(name: string, slot: 'first' | 'last'): Promise<void> {
  const a = (api = await MessagesApiStandIn.start({ defaultText: `${REPLY}.` }));
  const harness = (h = new UpHarness(name));
  Object.assign(harness.env, claudeEnv(bin as string, a.url, path.join(harness.tmp, 'user-home')), {
    // Claude Code arms its own continuation only for a claude.ai login (an OAuth token), never for an
    // API key or a gateway token; the stand-in takes any token.
    ANTHROPIC_API_KEY: undefined,
    CLAUDE_CODE_OAUTH_TOKEN: STAND_IN_OAUTH_TOKEN,
  });
  seedClaudeConfig(String(harness.env['CLAUDE_CONFIG_DIR']), harness.project);
  const trip = await limitRoundTrip(harness, 'claude', {
    limitUntil: (ms) => a.limitUntil(ms),
    turns: () => a.turns().map((r) => ({ text: messageTexts(r.body).map((m) => m.text).join('\n'), at: r.at })),
    replyWords: REPLY,
  }, { jitterMs: JITTER_MS, jitterSlot: slot, continuesItselfWithinMs: CLAUDE_OWN_WAIT_MS, first: slot === 'last' ? 'agent' : 'mori' });
  console.log(`claude (jitter ${JITTER_MS / 1000} s, ${slot} slot): limited ${trip.detectedAfterS.toFixed(1)} s after the message, with the reset ${trip.resetSeenAfterS.toFixed(1)} s; resumed request ${trip.resumedAfterS.toFixed(1)} s after the reset; ${trip.refusedWhileLimited} requests of its own while limited`);
  expect(trip.resumedAfterS).toBeGreaterThanOrEqual(0);
}
