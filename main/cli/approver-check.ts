// The CLI's side of "approvals come only from the person" (DESIGN.md §7, §11): `mori trust`,
// `mori init --command` and `mori down` ask whether this very process runs inside a supervised
// agent's process tree before they approve anything, since `mori trust` writes the trust store itself.
// The agents are the running daemon's (its session list); with none answering, the tmux agents that
// outlive it (Mori's tmux server's panes). Runs in the CLI process.
import type { SessionInfo } from '../../common/ipc.js';
import type { Failure } from '../../common/result.js';
import type { AgentProcess } from '../supervisor/agent-ancestry.js';
import { refuseFromAgents, runningAgents } from '../supervisor/approval-gate.js';
import { TmuxBackend } from '../terminals/tmux-backend.js';
import { ControlClient } from './control-client.js';

/** The agents running for this Mori home, as the daemon knows them, else as Mori's tmux server shows them. */
async function knownAgents(home: string): Promise<AgentProcess[]> {
  const c = await ControlClient.connect(home, { client: `mori cli approval check (pid ${process.pid})` });
  if (c.ok) {
    const listed = await c.value.request('list', {});
    c.value.close();
    if (listed.ok) return runningAgents(listed.value as SessionInfo[]);
  }
  const panes = await new TmuxBackend().list();
  return panes.filter((p) => p.alive && p.pid > 0).map((p) => ({ name: p.id, pid: p.pid }));
}

/** The refusal when this process runs inside an agent's tree, else null. */
export async function refusedInsideAgent(home: string, action: string): Promise<Failure | null> {
  return refuseFromAgents([process.pid], await knownAgents(home), action)?.failure ?? null;
}
