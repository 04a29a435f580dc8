// The soak's sleep: the daemon, the tmux server and every agent stopped (SIGSTOP) for `holdMs`, then
// continued together, as a suspend freezes them all. The daemon's power path sees it as a real
// suspend's wake: its drift detector's next tick is late on the monotonic clock (a suspended
// machine's is late on the wall clock; moving that needs root, which the soak does not ask for).
// Runs in the soak's process.
import type { World } from '../world.js';
import { signal } from '../world.js';
import type { Outcome } from './processes.js';

export async function sleep(world: World, holdMs: number): Promise<Outcome> {
  const p = world.processes();
  const all = [...p.daemons, ...p.tmux, ...[...p.agents.values()].flat()];
  for (const pid of all) signal(pid, 'SIGSTOP');
  await new Promise((r) => setTimeout(r, holdMs));
  // The processes found before the stop, plus any started meanwhile by none (all were stopped).
  for (const pid of all) signal(pid, 'SIGCONT');
  return { note: `SIGSTOP ${all.length} processes for ${holdMs} ms` };
}
