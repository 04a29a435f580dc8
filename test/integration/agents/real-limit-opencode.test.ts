// The real opencode at its usage limit under a real `mori up` (test/support/real-limit-round-trip.ts
// says the steps, `retriesItself`): the Messages API stand-in, opencode's model through its built-in
// anthropic provider, refuses as OpenCode's Go gateway does (429, a `GoUsageLimitError` body,
// `retry-after` to the reset), which opencode 1.18.33 words "Usage limit reached. It will reset in 1
// minute. …" on its retry line: it never stops there, it waits `retry-after` and sends the refused turn
// again by itself (up to 5 times). `mori ls --json` shows `limited` with the reset (read from the
// duration, so up to a minute late); opencode's own retry after the reset carries the conversation
// from before the limit; Mori's resume at its time finds it back at its prompt and types nothing.
// opencode comes from the cache test/support/agent-clis/install.sh fills; absent → skipped.
import { afterEach, describe, expect, it } from 'vitest';
import { installedCli, opencodeEnv } from '../../support/agent-clis/real-agents.js';
import { UpHarness } from '../../support/mori-up.js';
import { endHarness, limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { MessagesApiStandIn, messageTexts } from '../../../testkit/messages-api.js';

const found = installedCli('opencode-ai', '1.18.33', 'opencode');
const skip = 'skip' in found ? found.skip : null;
const REPLY = 'stand-in reply';
/**
 * opencode words the reset as a duration rounded up to whole minutes ("It will reset in 1 minute"), so
 * Mori's reset is up to a minute after the API's, plus the seconds until the screen is read.
 */
const RESET_SLACK_MS = 75_000;
/** Under a minute ahead: "1 minute", so Mori's reset stays within seconds of the API's and the test short. */
const RESET_IN_MS = 50_000;
/** opencode 1.18.33's first start in a fresh data dir: ~20 s to initialise, up to ~50 s more to its first request (agents-real-opencode.test.ts). */
const START_MS = 120_000;

let h: UpHarness | null = null;
let api: MessagesApiStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await api?.stop();
  api = null;
});

describe.skipIf(skip !== null)(`opencode at its usage limit, waited out${skip !== null ? ` (skipped: ${skip})` : ''}`, () => {
  it('is limited with the reset the API sent, retries by itself after it with its conversation, and Mori types nothing', async () => {
    const a = (api = await MessagesApiStandIn.start({ defaultText: `${REPLY}.`, limitStyle: 'opencode-go' }));
    const harness = (h = new UpHarness('opencode-limit-trip'));
    Object.assign(harness.env, opencodeEnv(a.url, harness.tmp), { MORI_AGENT_BIN_OPENCODE: (found as { bin: string }).bin });
    const trip = await limitRoundTrip(harness, 'opencode', {
      limitUntil: (ms) => a.limitUntil(ms),
      turns: () => a.turns().map((r) => ({ text: messageTexts(r.body).map((m) => m.text).join('\n'), at: r.at })),
      replyWords: REPLY,
    }, { startMs: START_MS, resetSlackMs: RESET_SLACK_MS, resetInMs: RESET_IN_MS, retriesItself: true });
    // Seen on a 2-core machine: limited 5.5–7.4 s after the message, its own retry 0.4–0.9 s after the reset; 93–119 s in all.
    console.log(`opencode: limited ${trip.detectedAfterS.toFixed(1)} s after the message, with the reset ${trip.resetSeenAfterS.toFixed(1)} s; resumed request ${trip.resumedAfterS.toFixed(1)} s after the reset; ${trip.refusedWhileLimited} requests of its own while limited`);
    expect(trip.resumedAfterS).toBeGreaterThanOrEqual(0);
  }, ROUND_TRIP_TIMEOUT_MS + START_MS + RESET_SLACK_MS);
});
