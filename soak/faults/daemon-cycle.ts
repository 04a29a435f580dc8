// The soak's `mori down` then `mori up --daemon` after a pause, at whatever moment the schedule
// says (a resume under way, a restart pending). Runs in the soak's process.
import type { World } from '../world.js';
import type { Outcome } from './processes.js';

export async function downUp(world: World, holdMs: number): Promise<Outcome> {
  const down = world.down();
  await new Promise((r) => setTimeout(r, holdMs));
  const up = world.up();
  return { note: `down → ${down.code}; up → ${up.pid ?? up.out.trim().slice(0, 120)}` };
}
