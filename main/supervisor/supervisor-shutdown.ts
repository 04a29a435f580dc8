// What stopping the supervisor does to each session (DESIGN.md §4, §6): its running agents are
// checkpointed and logged; tmux sessions are let go and keep running (the next supervisor re-attaches
// them); direct ones, children of this process, are ended with their process group and marked
// interrupted(supervisor-stopped). It ends once every checkpoint begun before it is written too (an
// exit's, a periodic one): the process may exit right after. Runs in the supervisor's process.
import type { Checkpointer } from './checkpoints/checkpoint.js';
import type { ExitHandler } from './exits/exit-handler.js';
import type { SessionRuntime } from './session/session-runtime.js';
import type { SessionStore } from './session/session-store.js';
import type { SessionTransitions } from './session/transitions.js';
import type { SupervisorEvent } from '../../common/events.js';

/** What stopping the sessions uses. */
export interface ShutdownPorts {
  store: Pick<SessionStore, 'write' | 'log'>;
  moves: Pick<SessionTransitions, 'base'>;
  emit(e: SupervisorEvent): void;
  exits: Pick<ExitHandler, 'detach'>;
  checkpoints: Pick<Checkpointer, 'take' | 'settled'>;
}

export async function shutdownSessions(ports: ShutdownPorts, sessions: readonly SessionRuntime[]): Promise<void> {
  const { store, moves, exits, checkpoints } = ports;
  const waits: Promise<unknown>[] = [];
  for (const rt of sessions) {
    rt.timers.clear('retry', 'limit');
    rt.takeCharge();
    const t = rt.terminal;
    if (!t || rt.stopping) continue;
    waits.push(checkpoints.take(rt, 'supervisor stopped'));
    store.log(rt, 'SESSION INTERRUPTED - supervisor stopped');
    const report = (what: string) => (err: unknown) => process.stderr.write(`mori: ${rt.name}: ${what} failed: ${String(err)}\n`);
    if (t.backend === 'tmux') {
      exits.detach(rt, 'the supervisor stopped');
      waits.push(t.dispose().catch(report('letting go of the tmux session')));
    } else {
      store.write(rt, (s) => ({ ...s, intent: { kind: 'interrupted', reason: 'supervisor-stopped' } }));
      waits.push(t.kill().catch(report('ending the agent')));
    }
    ports.emit({ type: 'session.stopped', ...moves.base(rt), by: 'supervisor' });
  }
  await Promise.all(waits);
  // A checkpoint of a session that had already ended (its exit's) or a periodic one still running:
  // each is bounded by git's time limit, and one cut off by the exit would be lost.
  await checkpoints.settled();
}
