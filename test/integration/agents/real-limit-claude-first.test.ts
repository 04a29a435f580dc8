// The real Claude Code at its usage limit under a real `mori up`, Claude first: Mori's resume is
// planned at the last slot of a 130 s jitter (MORI_LIMIT_JITTER_SLOT; 128 s after the reset), after
// Claude Code's own continuation (its first 30 s tick after the reset plus 30–90 s), so Claude's own
// resend of the refused turn comes first, Mori types nothing and logs one SESSION RESUMED saying the
// agent continued by itself. The stand-in's request log holds exactly one follow-up request after the
// reset, and nothing is relaunched. Its twin, real-limit-mori-first.test.ts, is the other order (a
// file each: the two waits run side by side). The CLI comes from test/support/agent-clis/install.sh;
// absent → skipped.
import { describe, it } from 'vitest';
import { ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { bin, CLAUDE_CODE_PACKAGE, endEachTest, JITTER_MS, waitedOut } from '../../support/real-limit-claude-itself.js';

endEachTest();

describe.skipIf(bin === null)(`claude at its usage limit, waited out${bin === null ? ` (skipped: run test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE})` : ''}`, () => {
  it('Claude first (Mori planned after its tick): its own continuation is the one follow-up request, nothing typed', async () => {
    await waitedOut('claude-limit-itself', 'last');
  }, ROUND_TRIP_TIMEOUT_MS + JITTER_MS);
});
