// The CLI's side of "approvals come only from the person" (DESIGN.md §7, §11): `mori trust`,
// `mori init --command` and `mori down` ask whether this very process runs inside a supervised
// agent's process tree before they approve anything, since `mori trust` writes the trust store itself.
// The agents are the running daemon's (its session list) and the panes of Mori's tmux server (tmux
// agents outlive the daemon). Runs in the CLI process.
import type { LiveSession } from '../../common/ipc.js';
import type { Failure } from '../../common/result.js';
import type { AgentProcess } from '../daemon/agent-ancestry.js';
import { refuseFromAgents, runningAgents } from '../daemon/approval-gate.js';
import { readRegistry } from '../state/registry.js';
import { tmuxSessionName } from '../terminals/tmux/pane-format.js';
import { TmuxServer } from '../terminals/tmux/tmux-server.js';
import { ControlClient } from '../daemon-client/control-client.js';

/**
 * The agents running for this Mori home: the daemon's sessions with a live program, and every pane of
 * Mori's tmux server (tmux agents outlive a stopped daemon, and one may run that this daemon did not
 * re-attach).
 */
async function knownAgents(home: string): Promise<AgentProcess[]> {
  const agents: AgentProcess[] = [];
  const c = await ControlClient.connect(home, { client: `mori cli approval check (pid ${process.pid})` });
  if (c.ok) {
    const listed = await c.value.request('list', {});
    c.value.close();
    if (listed.ok) agents.push(...runningAgents(listed.value as LiveSession[]));
  }
  agents.push(...(await tmuxAgents(home)));
  return agents;
}

/**
 * The live panes of Mori's tmux server. Spaces between the fields, not tabs: without a UTF-8 locale
 * (an environment emptied with `env -i`) tmux prints a tab in a format as `_`.
 */
async function tmuxAgents(home: string): Promise<AgentProcess[]> {
  const prefix = tmuxSessionName('');
  const r = await new TmuxServer().run(['list-panes', '-a', '-F', '#{session_name} #{pane_pid} #{pane_dead}']);
  if (r.code !== 0) return [];
  const registry = readRegistry(home);
  const nameOf = (id: string): string => (registry.ok ? registry.value.find((e) => e.id === id)?.name : undefined) ?? id;
  const out: AgentProcess[] = [];
  for (const line of r.stdout.split('\n')) {
    const [session = '', pid = '', dead = ''] = line.trim().split(' ');
    if (session.startsWith(prefix) && dead === '0' && Number(pid) > 0) out.push({ name: nameOf(session.slice(prefix.length)), pid: Number(pid) });
  }
  return out;
}

/** The refusal when this process runs inside an agent's tree, else null. */
export async function refusedInsideAgent(home: string, action: string): Promise<Failure | null> {
  return refuseFromAgents([process.pid], await knownAgents(home), action)?.failure ?? null;
}
