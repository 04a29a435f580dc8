// The real Qwen Code at its usage limit under a real `mori up`, waited out and resumed once
// (test/support/real-limit-round-trip.ts says the steps): the Chat Completions stand-in answers 429
// `insufficient_quota` with a message naming the reset (ISO 8601), Qwen Code 0.24.4 stops at once with
// "✕ Quota exhausted: …" and its StopFailure hook, `mori ls --json` shows `limited` with that reset,
// and after it the nudge reaches the API with the conversation from before the limit. The CLI comes
// from test/support/agent-clis/install.sh; absent → skipped.
import { afterEach, describe, expect, it } from 'vitest';
import { installedCli, qwenEnv } from '../../support/agent-clis/real-agents.js';
import { UpHarness } from '../../support/mori-up.js';
import { endHarness, limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { chatTurns, startChatCompletionsApi } from '../../support/stand-ins/chat-completions-api.js';
import { bodyText } from '../../support/stand-ins/loopback-server.js';
import type { LimitableStandIn } from '../../support/stand-ins/responses-api.js';

const found = installedCli('@qwen-code/qwen-code', '0.24.4', 'qwen');
const skip = 'skip' in found ? found.skip : null;

let h: UpHarness | null = null;
let api: LimitableStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await api?.close();
  api = null;
});

describe.skipIf(skip !== null)(`qwen at its usage limit, waited out${skip !== null ? ` (skipped: ${skip})` : ''}`, () => {
  it('is limited with the reset the API named, and resumed once after it with its conversation', async () => {
    const a = (api = await startChatCompletionsApi());
    const harness = (h = new UpHarness('qwen-limit-trip'));
    Object.assign(harness.env, qwenEnv(a, harness.tmp), { MORI_AGENT_BIN_QWEN: (found as { bin: string }).bin });
    const trip = await limitRoundTrip(harness, 'qwen', {
      limitUntil: (ms) => a.limitUntil(ms),
      // The agent's own turns: its side agents (memory extraction, suggestions) offer no ask_user_question.
      turns: () => chatTurns(a).filter((r) => bodyText(r.body).includes('ask_user_question')).map((r) => ({ text: bodyText(r.body), at: r.at })),
      replyWords: 'stand-in reply 1',
    });
    console.log(`qwen: limited ${trip.detectedAfterS.toFixed(1)} s after the message, with the reset ${trip.resetSeenAfterS.toFixed(1)} s; resumed request ${trip.resumedAfterS.toFixed(1)} s after the reset; ${trip.refusedWhileLimited} requests of its own while limited`);
    expect(trip.resumedAfterS).toBeGreaterThanOrEqual(0);
  }, ROUND_TRIP_TIMEOUT_MS);
});
