// The real Codex CLI at its usage limit under a real `mori up`, waited out and resumed once
// (test/support/real-limit-round-trip.ts says the steps): the Responses API stand-in answers 429
// `usage_limit_reached` with `resets_at`, `mori ls --json` shows `limited` with the reset, and after it
// the nudge reaches the API with the conversation from before the limit
// (agents-real-limit-again.test.ts: a second limit right after the resume). The CLI comes from test/support/agent-clis/install.sh; absent → skipped.
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

async function trip(label: string): Promise<Awaited<ReturnType<typeof limitRoundTrip>>> {
  const a = (api = await startResponsesApi());
  const harness = (h = new UpHarness(`codex-${label}`));
  Object.assign(harness.env, codexEnv(a, harness.tmp, harness.project), { MORI_AGENT_BIN_CODEX: (found as { bin: string }).bin });
  return limitRoundTrip(
    harness,
    'codex',
    { limitUntil: (ms) => a.limitUntil(ms), turns: () => responseTurns(a).map((r) => ({ text: bodyText(r.body), at: r.at })), replyWords: 'stand-in reply 1' },
  );
}

describe.skipIf(skip !== null)(`codex at its usage limit, waited out${skip !== null ? ` (skipped: ${skip})` : ''}`, () => {
  it('is limited with the reset the API sent, and resumed once after it with its conversation', async () => {
    const t = await trip('limit-trip');
    console.log(`codex: limited ${t.detectedAfterS.toFixed(1)} s after the message, with the reset ${t.resetSeenAfterS.toFixed(1)} s; resumed request ${t.resumedAfterS.toFixed(1)} s after the reset; ${t.refusedWhileLimited} requests of its own while limited`);
    expect(t.resumedAfterS).toBeGreaterThanOrEqual(0);
  }, ROUND_TRIP_TIMEOUT_MS);
});
