// What the supervisor tells about one session (LiveSession, common/ipc.ts), read off its runtime and
// its stored truth. Pure. Runs in the supervisor's process.
import type { LiveSession } from '../../../common/ipc.js';
import type { SessionRuntime } from './session-runtime.js';

export function sessionInfo(rt: SessionRuntime): LiveSession {
  return {
    id: rt.id,
    name: rt.name,
    stateDir: rt.stateDir,
    state: rt.state,
    activity: rt.activity,
    backend: rt.terminal?.backend ?? rt.session.backend,
    pid: rt.terminal?.pid ?? null,
    intent: rt.session.intent,
    nextAttemptAt: rt.nextAttemptAt,
    projectDir: rt.projectDir,
    profile: rt.session.agent.profile,
    failingChecks: (rt.session.lastVerification?.results ?? []).filter((r) => r.status === 'fail' || r.status === 'timeout').length,
    usageLimit: rt.session.usageLimit,
    ...(rt.session.handedOver ? { handedOver: { from: rt.session.handedOver.from, to: rt.session.handedOver.to, until: rt.session.handedOver.until } } : {}),
    ...(rt.session.worktree ? { branch: rt.session.worktree.branch } : {}),
    ...(rt.session.sandbox?.on ? { sandboxed: true, sandboxNetwork: rt.session.sandbox.network } : {}),
    ...(rt.permissionMode !== null ? { permissionMode: rt.permissionMode } : {}),
    ...(rt.state === 'attention' && rt.attentionMessage ? { attention: rt.attentionMessage } : {}),
  };
}
