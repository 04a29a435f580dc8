// `checks.list`, `checks.verify` and `checks.trust` (DESIGN.md §7, §12): a session's checks with their
// sources, a verification announced as events, and the person's approval of the exact list shown
// (daemon-checks.ts). Runs in the daemon.
import { parseParams } from '../../../common/ipc.js';
import { ok } from '../../../common/result.js';
import { approveChecks, listChecks } from '../daemon-checks.js';
import { bad, sessionDir, type Handler } from './context.js';

export const listSessionChecks: Handler = (ctx, raw) => {
  const p = parseParams('checks.list', raw);
  if (!p.ok) return bad(p.message);
  const s = sessionDir(ctx, p.value.session);
  return s.ok ? listChecks(ctx.home, s.value.stateDir) : s;
};

export const verifySessionChecks: Handler = async (ctx, raw) => {
  const p = parseParams('checks.verify', raw);
  if (!p.ok) return bad(p.message);
  const s = sessionDir(ctx, p.value.session);
  if (!s.ok) return s;
  const v = await ctx.supervisor.verifyChecks({ sessionId: s.value.id, name: s.value.name, stateDir: s.value.stateDir }, p.value.restartServices);
  return v.ok ? ok(v.value.value) : v;
};

export const trustSessionChecks: Handler = (ctx, raw) => {
  const p = parseParams('checks.trust', raw);
  if (!p.ok) return bad(p.message);
  const s = sessionDir(ctx, p.value.session);
  return s.ok ? approveChecks(ctx.home, s.value.stateDir, p.value.hash) : s;
};
