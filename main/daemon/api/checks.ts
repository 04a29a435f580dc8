// `checks.list`, `checks.verify` and `checks.trust` (DESIGN.md §7, §12): a session's checks with their
// sources, a verification announced as events, and the person's approval of the exact list shown
// (daemon-checks.ts). Runs in the daemon.
import { ok } from '../../../common/result.js';
import { approveChecks, listChecks, verifyChecks } from '../daemon-checks.js';
import { SharedRuns } from '../shared-runs.js';
import { sessionDir, type Handler } from './context.js';

export const listSessionChecks: Handler<'checks.list'> = (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? listChecks(ctx.home, s.value.stateDir) : s;
};

/** One verification per session and mode at a time, daemon-wide: a repeated request joins it. */
const verifications = new SharedRuns<Awaited<ReturnType<typeof verifyChecks>>>();

export const verifySessionChecks: Handler<'checks.verify'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  if (!s.ok) return s;
  const base = { sessionId: s.value.id, name: s.value.name };
  const { result } = verifications.run(`${s.value.stateDir}\0${p.restartServices}`, async () => {
    ctx.supervisor.publish({ type: 'verify.started', at: Date.now(), ...base });
    const v = await verifyChecks(ctx.home, s.value.stateDir, p.restartServices);
    ctx.supervisor.noteVerification(s.value.id);
    ctx.supervisor.publish({ type: 'verify.finished', at: Date.now(), ...base, ok: v.ok && v.value.ok, summary: v.ok ? v.value.summary : v.message });
    return v;
  });
  const v = await result;
  return v.ok ? ok(v.value.value) : v;
};

export const trustSessionChecks: Handler<'checks.trust'> = async (p, ctx) => {
  const s = sessionDir(ctx, p.session);
  return s.ok ? approveChecks(ctx.home, s.value.stateDir, p.hash) : s;
};
