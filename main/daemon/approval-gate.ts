// Approvals come only from the person (DESIGN.md §7, §11): which requests approve something (trust a
// command list or an agent command, create a session with its command approved, change the daemon's
// settings, stop the daemon, remove or rename a session), which launch an agent (create, start or hand off a
// session: an agent does not start agents), and the decision for whoever asked. A caller inside a
// supervised agent's process tree is refused either with a message saying where approvals are given.
// The supervisor asks it about the process on the other end of the control socket; the CLI about
// itself. Runs in the supervisor and the CLI.
import { parseParams, type IpcMethod, type LiveSession } from '../../common/ipc.js';
import { fail, type Failure } from '../../common/result.js';
import { pidAlive } from '../os/pid-alive.js';
import { insideAgent, type AgentProcess } from './agent-ancestry.js';
import type { PeerLookup } from './peer-process.js';

/** Where approvals are given; every refusal ends with it. */
export const APPROVALS_FROM_PERSON = "approvals come from the person: use the Mori window, or run this in a terminal outside Mori's sessions";

/** What an approving request does, in words for the refusal; null when the request approves nothing. */
export function approvingAction(method: IpcMethod, params: unknown): string | null {
  switch (method) {
    case 'checks.trust':
      return 'approving commands to run';
    case 'agent.trust':
      return "approving a session's agent command to run";
    case 'session.init': {
      // A session of an agent profile names no command; only shell/custom ones approve theirs.
      const p = parseParams('session.init', params);
      if (!p.ok || p.value.command !== undefined) return 'creating a session with its command approved';
      // Whether an agent runs sandboxed is the person's choice: an agent does not choose its own or another's.
      return p.value.sandbox === undefined ? null : 'choosing whether a session runs in a sandbox';
    }
    // Probe targets and restart limits are the person's, as is whether notifications reach them.
    case 'settings.set':
      return "changing the Mori daemon's settings";
    case 'daemon.stop':
      return 'stopping the Mori supervisor';
    // Where notices go is the person's: an agent must not send them where it likes, nor send them at all.
    case 'notify.add':
      return 'adding a notice target';
    case 'notify.remove':
      return 'removing a notice target';
    case 'notify.test':
      return 'sending a test notice';
    // Sessions are the person's: an agent does not remove or rename one (its own included) by itself.
    case 'session.remove':
      return 'removing a session';
    case 'session.rename':
      return 'renaming a session';
    // Waiting out a usage limit is the person's call: an agent does not cut its own wait short.
    case 'limit.resume-now':
      return 'resuming a session at its usage limit now';
    // Overriding the wait for a working agent is the person's call; a plain rollback is not an approval.
    case 'rollback': {
      const p = parseParams('rollback', params);
      return p.ok && p.value.confirm && !p.value.dryRun ? 'confirming a rollback while the agent works' : null;
    }
    default:
      return null;
  }
}

/**
 * What a request that launches an agent does, in words for the refusal; null when it launches none.
 * Refused from inside an agent like an approval (an agent would start another, outside its project
 * and its own sandbox, on a task of its choosing), but relayed by `mori bridge`: starting one's
 * sessions on another host is the person's everyday use, and a login over ssh is outside every
 * agent's tree as the daemon sees it, as the CLI run over ssh is. An agent still logs, reads its
 * status and checks, types into and stops its own session: none of that starts a process.
 */
export function launchingAction(method: IpcMethod, _params: unknown): string | null {
  switch (method) {
    case 'session.init':
      return 'creating a session (it starts an agent on the task it is given)';
    case 'start':
      return 'starting a session (it launches its agent)';
    // An agent does not hand its session (or another) to an agent of its choosing.
    case 'session.handoff':
      return 'handing a session to another agent (it launches one)';
    default:
      return null;
  }
}

/** Every request refused from inside an agent: an approval, or the launch of an agent. */
export function agentRefusedAction(method: IpcMethod, params: unknown): string | null {
  return approvingAction(method, params) ?? launchingAction(method, params);
}

/** The agents whose trees approvals are refused from: every session with a live program. */
export function runningAgents(sessions: readonly LiveSession[]): AgentProcess[] {
  return sessions.filter((s) => s.pid !== null && s.pid > 0 && pidAlive(s.pid)).map((s) => ({ name: s.name, pid: s.pid as number, stateDir: s.stateDir }));
}

/** A refused request: the answer, and the agent it came from when one is known (its work log records it). */
export interface Refusal {
  failure: Failure;
  agent: AgentProcess | null;
}

/** The refusal for `action` asked by a process inside an agent's tree, else null. */
export function refuseFromAgents(pids: readonly number[], agents: readonly AgentProcess[], action: string): Refusal | null {
  for (const pid of pids) {
    const verdict = insideAgent(pid, agents);
    if (verdict.inside) return { failure: fail('forbidden', `${action} is refused from inside a supervised agent (${verdict.reason}); ${APPROVALS_FROM_PERSON}`), agent: verdict.agent };
  }
  return null;
}

/**
 * The decision for a request that arrived on the control socket. With no agent running there is no
 * one to refuse, and nothing is looked up. While agents run, a peer the kernel did not name (no way to
 * ask it here, or the process that connected is gone) is refused, and the person is told why.
 */
export function judgePeer(lookup: PeerLookup, agents: readonly AgentProcess[], action: string): Refusal | null {
  if (agents.length === 0) return null;
  if (!lookup.known) return { failure: fail('forbidden', `${action} is refused: the process asking could not be identified (${lookup.reason}), and agents are running; ${APPROVALS_FROM_PERSON}`), agent: null };
  return refuseFromAgents([lookup.pid], agents, action);
}
