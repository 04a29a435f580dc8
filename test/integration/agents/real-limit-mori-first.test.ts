// The real Claude Code at its usage limit under a real `mori up`, Mori first: its resume at the first
// slot of its jitter (MORI_LIMIT_JITTER_SLOT; the reset itself), the nudge typed once, and Claude
// Code's own continuation (its first 30 s tick after the reset plus 30–90 s) sends nothing more. The
// stand-in's request log holds exactly one follow-up request after the reset, and nothing is
// relaunched. Its twin, real-limit-claude-first.test.ts, is the other order (a file each: the two
// waits run side by side). The CLI comes from test/support/agent-clis/install.sh; absent → skipped.
import { describe, it } from 'vitest';
import { ROUND_TRIP_TIMEOUT_MS } from '../../support/real-limit-round-trip.js';
import { bin, CLAUDE_CODE_PACKAGE, CLAUDE_OWN_WAIT_MS, endEachTest, waitedOut } from '../../support/real-limit-claude-itself.js';

endEachTest();

describe.skipIf(bin === null)(`claude at its usage limit, waited out${bin === null ? ` (skipped: run test/support/agent-clis/install.sh ${CLAUDE_CODE_PACKAGE})` : ''}`, () => {
  it('Mori first (its resume at the reset): the nudge typed once is the one follow-up request, Claude adds none', async () => {
    await waitedOut('claude-limit-mori-first', 'first');
  }, ROUND_TRIP_TIMEOUT_MS + CLAUDE_OWN_WAIT_MS);
});
