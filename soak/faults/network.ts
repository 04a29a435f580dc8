// The soak's network faults (soak/stand-ins.ts): the network lost (the probe target and the API
// stand-in both go away for the hold, then come back, as a dropped Wi-Fi takes both) and an API
// outage alone (the API stand-in away while the probe target still answers: the agents' requests
// fail while the daemon's probe says online). Meanwhile each soak agent's turn fails as a real CLI's
// does (its retry countdown, then its API error at the prompt after its last attempt); the daemon
// must hold its resumes while the network is down and bring every session back once it returns.
// Runs in the soak's process.
import type { StandIn } from '../stand-ins.js';
import type { World } from '../world.js';
import type { Outcome } from './processes.js';

async function away(world: World, which: readonly StandIn[], holdMs: number, what: string): Promise<Outcome> {
  await world.net.away(which);
  try {
    await new Promise((r) => setTimeout(r, holdMs));
  } finally {
    await world.net.back(which);
  }
  return { note: `${what} away for ${holdMs} ms` };
}

/** The probe target and the API stand-in away for `holdMs`, then back. */
export function networkLoss(world: World, holdMs: number): Promise<Outcome> {
  return away(world, ['probe', 'api'], holdMs, 'probe target and API');
}

/** The API stand-in alone away for `holdMs`, then back; the probe target answers throughout. */
export function apiOutage(world: World, holdMs: number): Promise<Outcome> {
  return away(world, ['api'], holdMs, 'API');
}
