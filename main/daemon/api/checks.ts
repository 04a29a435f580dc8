// `checks.list`, `checks.verify` and `checks.trust` (DESIGN.md §7, §12): a session's checks with their
// sources, a verification (the supervisor's, announced as events; one per session at a time), and the person's approval of the exact list shown
// (daemon-checks.ts). Runs in the daemon.
import { ok, type Result } from '../../../common/result.js';
import type { VerifyReport } from '../../checks/verify-report.js';
import { approveChecks, listChecks } from '../daemon-checks.js';
import { SharedRuns } from '../shared-runs.js';
import { sessionDir, type Handler } from './context.js';

export const listSessionChecks: Handler<'checks.list'> = (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? listChecks(ctx.home, s.value.stateDir) : s;
};

/** One verification per session and mode at a time, daemon-wide: a repeated request joins it. */
const verifications = new SharedRuns<Result<VerifyReport>>();

export const verifySessionChecks: Handler<'checks.verify'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  if (!s.ok) return s;
  const target = { sessionId: s.value.id, name: s.value.name, stateDir: s.value.stateDir };
  const { result } = verifications.run(`${s.value.stateDir}\0${p.restartServices}`, () => ctx.supervisor.verifyChecks(target, p.restartServices));
  const v = await result;
  return v.ok ? ok(v.value.value) : v;
};

export const trustSessionChecks: Handler<'checks.trust'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? approveChecks(ctx.home, s.value.stateDir, p.hash) : s;
};
