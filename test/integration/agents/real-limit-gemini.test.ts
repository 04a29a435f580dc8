// The real Gemini CLI at its usage limit under a real `mori up`, waited out and resumed once
// (test/support/real-limit-round-trip.ts says the steps): the Gemini API stand-in answers 429
// RESOURCE_EXHAUSTED with Code Assist's QUOTA_EXHAUSTED and a RetryInfo to the reset (a plan's quota,
// which Gemini CLI never retries by itself, however near the reset), Gemini CLI stops with its limit
// dialog naming the reset, `mori ls --json` shows `limited` with it, and after it the nudge reaches the
// API with the conversation from before the limit. The CLI comes from test/support/agent-clis/install.sh;
// absent → skipped.
import { afterEach, describe, expect, it } from 'vitest';
import { geminiEnv, installedCli } from '../../support/agent-clis/real-agents.js';
import { UpHarness } from '../../support/mori-up.js';
import { endHarness, limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { bodyText } from '../../support/stand-ins/loopback-server.js';
import { geminiTurns, startGeminiApi, type GeminiStandIn } from '../../support/stand-ins/gemini-api.js';

const found = installedCli('@google/gemini-cli', '0.61.0', 'gemini');
const skip = 'skip' in found ? found.skip : null;

let h: UpHarness | null = null;
let api: GeminiStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await api?.close();
  api = null;
});

describe.skipIf(skip !== null)(`gemini at its usage limit, waited out${skip !== null ? ` (skipped: ${skip})` : ''}`, () => {
  it('is limited with the reset the API sent, and resumed once after it with its conversation', async () => {
    const a = (api = await startGeminiApi());
    const harness = (h = new UpHarness('gemini-limit-trip'));
    Object.assign(harness.env, geminiEnv(a, harness.tmp), { MORI_AGENT_BIN_GEMINI: (found as { bin: string }).bin });
    const trip = await limitRoundTrip(harness, 'gemini', {
      limitUntil: (ms) => a.limitUntil(ms, { plan: true }),
      turns: () => geminiTurns(a).map((r) => ({ text: bodyText(r.body), at: r.at })),
      replyWords: 'stand-in reply 1',
    });
    console.log(`gemini: limited ${trip.detectedAfterS.toFixed(1)} s after the message, with the reset ${trip.resetSeenAfterS.toFixed(1)} s; resumed request ${trip.resumedAfterS.toFixed(1)} s after the reset; ${trip.refusedWhileLimited} requests of its own while limited`);
    expect(trip.resumedAfterS).toBeGreaterThanOrEqual(0);
  }, ROUND_TRIP_TIMEOUT_MS);
});
