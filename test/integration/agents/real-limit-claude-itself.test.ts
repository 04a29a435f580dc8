// The real Claude Code at its usage limit under a real `mori up`, in both orders of going on after
// the reset, each forced with MORI_LIMIT_JITTER_SLOT: Claude Code continues by itself at its first
// 30 s tick after the reset plus 30–90 s (so between 30 and 120 s after it). Claude first: Mori's
// resume planned at the last slot of a 130 s jitter (128 s after the reset), so Claude's own resend
// of the refused turn comes first, Mori types nothing and logs one SESSION RESUMED saying the agent
// continued by itself. Mori first: its resume at the first slot (the reset itself), the nudge typed
// once, and Claude's own tick sends nothing more. Either way the stand-in's request log holds
// exactly one follow-up request after the reset, and nothing is relaunched. The CLI comes from
// test/support/agent-clis/install.sh; absent → skipped.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UpHarness } from '../../support/mori-up.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, installedAgentCli, seedClaudeConfig } from '../../../testkit/real-claude.js';
import { endHarness, limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { MessagesApiStandIn, messageTexts } from '../../../testkit/messages-api.js';

const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const REPLY = 'stand-in reply';
/** A claude.ai OAuth token in the form `claude setup-token` prints; only the stand-in ever sees it. */
const STAND_IN_OAUTH_TOKEN = 'sk-ant-oat01-mori-stand-in';
/** Claude Code 2.1.332 continues at its first 30 s tick after the reset plus 30–90 s: within 120 s. */
const CLAUDE_OWN_WAIT_MS = 120_000;
/** Mori's jitter after the reset: its last slot (128 s) lies after Claude's latest tick, its first is the reset. */
const JITTER_MS = 130_000;

let h: UpHarness | null = null;
let api: MessagesApiStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await api?.stop();
  api = null;
});

async function waitedOut(name: string, slot: 'first' | 'last'): Promise<void> {
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

describe.skipIf(bin === null)(`claude at its usage limit, waited out in both orders${bin === null ? ` (skipped: run test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE})` : ''}`, () => {
  it('Claude first (Mori planned after its tick): its own continuation is the one follow-up request, nothing typed', async () => {
    await waitedOut('claude-limit-itself', 'last');
  }, ROUND_TRIP_TIMEOUT_MS + JITTER_MS);

  it('Mori first (its resume at the reset): the nudge typed once is the one follow-up request, Claude adds none', async () => {
    await waitedOut('claude-limit-mori-first', 'first');
  }, ROUND_TRIP_TIMEOUT_MS + CLAUDE_OWN_WAIT_MS);
});
