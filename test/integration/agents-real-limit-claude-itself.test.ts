// The real Claude Code at its usage limit under a real `mori up`, with a jitter (300 s) longer than
// Claude Code's own wait after the reset (its first 30 s tick after the reset plus 30–90 s), so it
// usually goes on by itself first: then Mori types nothing and logs one SESSION RESUMED saying so;
// when Mori's planned time comes first, its nudge is the one resume. Either way the stand-in's
// request log holds exactly one follow-up request after the reset. The order this run took is
// printed. The CLI comes from test/agent-clis/install.sh; absent → skipped.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UpHarness } from '../helpers/mori-up.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudeGatewayToken, installedAgentCli, seedClaudeConfig } from '../helpers/real-claude.js';
import { endHarness, limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../helpers/real-limit-round-trip.js';
import { MessagesApiStandIn, messageTexts } from '../stand-ins/messages-api.js';

const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const REPLY = 'stand-in reply';
/** Mori's jitter after the reset: longer than Claude Code's own wait, so it mostly goes first. */
const JITTER_MS = 300_000;
/** Claude Code 2.1.332 continues at its first 30 s tick after the reset plus 30–90 s: within 2 minutes, with room. */
const CLAUDE_OWN_WAIT_MS = 130_000;

let h: UpHarness | null = null;
let api: MessagesApiStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await api?.stop();
  api = null;
});

describe.skipIf(bin === null)(`claude at its usage limit, waited out${bin === null ? ` (skipped: run test/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE})` : ''}`, () => {
  it('continuing by itself after the reset, or nudged by Mori first: one follow-up request, never two', async () => {
    const a = (api = await MessagesApiStandIn.start({ defaultText: `${REPLY}.` }));
    const harness = (h = new UpHarness('claude-limit-itself'));
    Object.assign(harness.env, claudeEnv(bin as string, a.url, path.join(harness.tmp, 'user-home')), {
      // The 429 is worded as a plan limit only for a gateway token (an API key gets "Request rejected (429)").
      ANTHROPIC_API_KEY: undefined,
      ANTHROPIC_AUTH_TOKEN: claudeGatewayToken(),
    });
    seedClaudeConfig(String(harness.env['CLAUDE_CONFIG_DIR']), harness.project);
    const trip = await limitRoundTrip(harness, 'claude', {
      limitUntil: (ms) => a.limitUntil(ms),
      turns: () => a.turns().map((r) => ({ text: messageTexts(r.body).map((m) => m.text).join('\n'), at: r.at })),
      replyWords: REPLY,
    }, { jitterMs: JITTER_MS, continuesItselfWithinMs: CLAUDE_OWN_WAIT_MS });
    console.log(`claude (jitter ${JITTER_MS / 1000} s): limited ${trip.detectedAfterS.toFixed(1)} s after the message, with the reset ${trip.resetSeenAfterS.toFixed(1)} s; resumed request ${trip.resumedAfterS.toFixed(1)} s after the reset; ${trip.refusedWhileLimited} requests of its own while limited`);
    expect(trip.resumedAfterS).toBeGreaterThanOrEqual(0);
  }, ROUND_TRIP_TIMEOUT_MS + JITTER_MS + CLAUDE_OWN_WAIT_MS);
});
