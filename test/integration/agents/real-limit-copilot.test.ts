// The real Copilot CLI at its usage limit under a real `mori up`, waited out and resumed once
// (test/support/real-limit-round-trip.ts says the steps): the Responses stand-in answers 429 with a
// message naming the reset (ISO 8601); Copilot CLI 1.0.102 retries five times over about a minute,
// then ends the turn with "✗ Failed to get response from the AI model; … Last error: 429 …" and a
// `session.error` of type rate_limit in its events file; `mori ls --json` shows `limited` with that
// reset, and after it the nudge reaches the API with the conversation from before the limit. The
// CLI comes from test/support/agent-clis/install.sh; absent → skipped.
import { afterEach, describe, expect, it } from 'vitest';
import { copilotEnv, installedCli } from '../../support/agent-clis/real-agents.js';
import { UpHarness } from '../../support/mori-up.js';
import { endHarness, limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { bodyText } from '../../support/stand-ins/loopback-server.js';
import { resetNamingWords, responseTurns, startResponsesApi, type LimitableStandIn } from '../../support/stand-ins/responses-api.js';

const found = installedCli('@github/copilot', '1.0.102', 'copilot');
const skip = 'skip' in found ? found.skip : null;
/** Its five retries take ~55 s before it gives up and shows the limit: the reset further out than the usual minute. */
const RESET_IN_MS = 100_000;

let h: UpHarness | null = null;
let api: LimitableStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await api?.close();
  api = null;
});

describe.skipIf(skip !== null)(`copilot at its usage limit, waited out${skip !== null ? ` (skipped: ${skip})` : ''}`, () => {
  it('is limited with the reset the API named, and resumed once after it with its conversation', async () => {
    const a = (api = await startResponsesApi(0, { after: 0, calls: [] }, resetNamingWords));
    const harness = (h = new UpHarness('copilot-limit-trip'));
    Object.assign(harness.env, copilotEnv(a, harness.tmp, harness.project), { MORI_AGENT_BIN_COPILOT: (found as { bin: string }).bin });
    const trip = await limitRoundTrip(
      harness,
      'copilot',
      { limitUntil: (ms) => a.limitUntil(ms), turns: () => responseTurns(a).map((r) => ({ text: bodyText(r.body), at: r.at })), replyWords: 'stand-in reply 1' },
      { resetInMs: RESET_IN_MS },
    );
    console.log(`copilot: limited ${trip.detectedAfterS.toFixed(1)} s after the message, with the reset ${trip.resetSeenAfterS.toFixed(1)} s; resumed request ${trip.resumedAfterS.toFixed(1)} s after the reset; ${trip.refusedWhileLimited} requests of its own while limited`);
    expect(trip.resumedAfterS).toBeGreaterThanOrEqual(0);
  }, ROUND_TRIP_TIMEOUT_MS);
});
