// The soak's process faults: SIGKILL of one agent, of its whole process group, of the daemon, of the
// tmux server. A fault whose target is not running now (an agent between a crash and its restart)
// is still counted, with what it found. Runs in the soak's process.
import type { World } from '../world.js';
import { processGroup, signal } from '../world.js';

export interface Outcome {
  /** What the fault did, for the fault sequence printed on a violation. */
  note: string;
}

export function killAgent(world: World, session: number): Outcome {
  const pids = world.processes().agents.get(session) ?? [];
  if (pids.length === 0) return { note: 'no agent running' };
  for (const pid of pids) signal(pid, 'SIGKILL');
  return { note: `SIGKILL ${pids.join(',')}` };
}

export function killGroup(world: World, session: number): Outcome {
  const pids = world.processes().agents.get(session) ?? [];
  const groups = [...new Set(pids.map(processGroup).filter((g): g is number => g !== null && g > 1))];
  if (groups.length === 0) return { note: 'no agent running' };
  for (const g of groups) signal(-g, 'SIGKILL');
  return { note: `SIGKILL group ${groups.join(',')}` };
}

/** SIGKILL of every daemon of the world's home, then, after `holdMs`, `mori up --daemon` as a login item would. */
export async function killDaemon(world: World, holdMs: number): Promise<Outcome> {
  const daemons = world.processes().daemons;
  for (const pid of daemons) signal(pid, 'SIGKILL');
  await new Promise((r) => setTimeout(r, holdMs));
  const up = world.up();
  return { note: `SIGKILL daemon ${daemons.join(',') || '(none)'}; up → ${up.pid ?? up.out.trim().slice(0, 120)}` };
}

export function killTmux(world: World): Outcome {
  const servers = world.processes().tmux;
  for (const pid of servers) signal(pid, 'SIGKILL');
  return { note: servers.length > 0 ? `SIGKILL tmux ${servers.join(',')}` : 'no tmux server' };
}
