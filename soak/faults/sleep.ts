// The soak's sleep: the daemon, the tmux server and every agent stopped (SIGSTOP) for `holdMs`, then
// continued together, as a suspend freezes them all. The daemon's power path sees it as a real
// suspend's wake: its drift detector's next tick is late on the monotonic clock (a suspended
// machine's is late on the wall clock; moving that needs root, which the soak does not ask for).
// Half the sleeps (an odd hold) also come as the app's power events do on a real suspend: the
// `hint.power` suspend before the stop and the resume after, which the drift detector's own wake
// then meets (one interruption and one resume for both). Runs in the soak's process.
import { ControlClient } from '../../main/daemon-client/control-client.js';
import type { World } from '../world.js';
import { signal } from '../world.js';
import type { Outcome } from './processes.js';

/** A daemon answers a hint at once (it interrupts and logs before it answers); one that has not by then is busy beyond a suspend's patience. */
const HINT_BOUND_MS = 10_000;

/** Tells the daemon what the app's powerMonitor would; false when it could not be told (down, busy). */
async function powerHint(world: World, kind: 'suspend' | 'resume'): Promise<boolean> {
  const c = await ControlClient.connect(world.home);
  if (!c.ok) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    const answered = c.value.request('hint.power', { kind }).then((r) => r.ok);
    return await Promise.race([answered, new Promise<boolean>((r) => (timer = setTimeout(() => r(false), HINT_BOUND_MS)))]);
  } finally {
    clearTimeout(timer);
    c.value.close();
  }
}

export async function sleep(world: World, holdMs: number): Promise<Outcome> {
  const hinted = holdMs % 2 === 1;
  const told = hinted ? await powerHint(world, 'suspend') : false;
  const p = world.processes();
  const all = [...p.daemons, ...p.tmux, ...[...p.agents.values()].flat()];
  for (const pid of all) signal(pid, 'SIGSTOP');
  await new Promise((r) => setTimeout(r, holdMs));
  // The processes found before the stop, plus any started meanwhile by none (all were stopped).
  for (const pid of all) signal(pid, 'SIGCONT');
  const woke = hinted ? await powerHint(world, 'resume') : false;
  const how = hinted ? `, the power events ${told ? 'told' : 'not told (suspend refused)'} and ${woke ? 'told' : 'not told (resume refused)'}` : '';
  return { note: `SIGSTOP ${all.length} processes for ${holdMs} ms${how}` };
}
