// `checks.list`, `checks.verify`, `checks.trust` and `agent.trust` (DESIGN.md §7, §12): a session's checks
// with their sources and its agent command, a verification (the supervisor's, announced as events; one
// per session at a time), and the person's approval of the exact list or command shown
// (daemon-checks.ts); a session that waited for its agent command's approval starts once given it. Runs in the daemon.
import { fail, ok, type Result } from '../../../common/result.js';
import type { VerifyReport } from '../../checks/verify-report.js';
import { approveAgent, approveChecks, listChecks } from '../daemon-checks.js';
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

export const trustAgentCommand: Handler<'agent.trust'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  if (!s.ok) return s;
  const approved = await approveAgent(ctx.home, s.value.stateDir, p.hash);
  if (!approved.ok) return approved;
  // Its launch stopped only for this approval: the person approving it means "run it".
  const info = ctx.supervisor.list().find((i) => i.id === s.value.id);
  const waiting = info?.state === 'attention' && (info.attention?.reason ?? (info.intent.kind === 'attention' ? info.intent.reason : null)) === 'needs-trust';
  if (!waiting) return ok({ ...approved.value, started: false });
  const started = await ctx.supervisor.startSession(s.value.id);
  return started.ok ? ok({ ...approved.value, started: true }) : fail(started.code, `approved the agent command, but it could not be started: ${started.message}`);
};
