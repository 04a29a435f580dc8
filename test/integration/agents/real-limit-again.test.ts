// A second usage limit right after the resume, on the real Codex CLI under a real `mori up`: the
// stand-in still refuses at the first reset, now with a reset a minute later; the resumed turn
// (carrying the conversation) meets it and the session is `limited` again with the new reset, not
// crashed, restarted or resumed twice (test/support/real-limit-round-trip.ts, `again`). Its own
// file so vitest runs it beside the other CLIs' round trips. Absent CLI → skipped.
import { afterEach, describe, expect, it } from 'vitest';
import { codexEnv, installedCli } from '../../support/agent-clis/real-agents.js';
import { UpHarness } from '../../support/mori-up.js';
import { endHarness, limitRoundTrip, ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { bodyText } from '../../support/stand-ins/loopback-server.js';
import { responseTurns, startResponsesApi, type LimitableStandIn } from '../../support/stand-ins/responses-api.js';

const found = installedCli('@openai/codex', '0.171.0', 'codex');
const skip = 'skip' in found ? found.skip : null;

let h: UpHarness | null = null;
let api: LimitableStandIn | null = null;
afterEach(async () => {
  await endHarness(h);
  h = null;
  await api?.close();
  api = null;
});

describe.skipIf(skip !== null)(`codex meeting its usage limit again after the resume${skip !== null ? ` (skipped: ${skip})` : ''}`, () => {
  it('is limited again with the new reset, the first resume its only one', async () => {
    const a = (api = await startResponsesApi());
    const harness = (h = new UpHarness('codex-limit-again'));
    Object.assign(harness.env, codexEnv(a, harness.tmp, harness.project), { MORI_AGENT_BIN_CODEX: (found as { bin: string }).bin });
    const t = await limitRoundTrip(
      harness,
      'codex',
      { limitUntil: (ms) => a.limitUntil(ms), turns: () => responseTurns(a).map((r) => ({ text: bodyText(r.body), at: r.at })), replyWords: 'stand-in reply 1' },
      { again: true },
    );
    console.log(`codex again: limited ${t.detectedAfterS.toFixed(1)} s after the message, with the reset ${t.resetSeenAfterS.toFixed(1)} s; resumed request ${t.resumedAfterS.toFixed(1)} s after the reset`);
    expect(t.resumedAfterS).toBeGreaterThanOrEqual(0);
  }, ROUND_TRIP_TIMEOUT_MS);
});
