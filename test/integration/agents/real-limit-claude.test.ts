// The real Claude Code at its usage limit under a real `mori up`, waited out and resumed once
// (test/support/real-limit-round-trip.ts says the steps): the Messages API stand-in answers 429 with
// the unified rate-limit headers of a spent 5-hour window (a gateway token, so claude words it as a
// plan limit), `mori ls --json` shows `limited` with the reset, and after it the nudge reaches the
// API with the conversation from before the limit. The CLI comes from test/support/agent-clis/install.sh;
// absent → skipped.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UpHarness } from '../../support/mori-up.js';
import { CLAUDE_CODE_PACKAGE, claudeEnv, claudeGatewayToken, installedAgentCli, seedClaudeConfig } from '../../../testkit/real-claude.js';
import { endHarness, limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { MessagesApiStandIn, messageTexts } from '../../../testkit/messages-api.js';

const bin = installedAgentCli(CLAUDE_CODE_PACKAGE, 'claude');
const REPLY = 'stand-in reply';

let h: UpHarness | null = null;
let api: MessagesApiStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await api?.stop();
  api = null;
});

describe.skipIf(bin === null)(`claude at its usage limit, waited out${bin === null ? ` (skipped: run test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE})` : ''}`, () => {
  it('is limited with the reset the API sent, and resumed once after it with its conversation', async () => {
    const a = (api = await MessagesApiStandIn.start({ defaultText: `${REPLY}.` }));
    const harness = (h = new UpHarness('claude-limit-trip'));
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
    });
    console.log(`claude: limited ${trip.detectedAfterS.toFixed(1)} s after the message, with the reset ${trip.resetSeenAfterS.toFixed(1)} s; resumed request ${trip.resumedAfterS.toFixed(1)} s after the reset; ${trip.refusedWhileLimited} requests of its own while limited`);
    expect(trip.resumedAfterS).toBeGreaterThanOrEqual(0);
  }, ROUND_TRIP_TIMEOUT_MS);
});
