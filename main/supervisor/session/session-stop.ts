// The person stops a session (DESIGN.md §4): it is never auto-resumed; a running agent's whole
// process group is ended (a tmux session with it) and its exit, handled as a stop, writes the rest;
// one not running is marked stopped at once. Runs in the supervisor's process.
import type { SupervisorEvent } from '../../../common/events.js';
import type { SessionRuntime } from './session-runtime.js';
import type { SessionStore } from './session-store.js';
import type { SessionTransitions } from './transitions.js';

export interface SessionStopPorts {
  store: Pick<SessionStore, 'write' | 'log'>;
  moves: Pick<SessionTransitions, 'move' | 'base'>;
  emit(e: SupervisorEvent): void;
}

export async function stopSession(rt: SessionRuntime, ports: SessionStopPorts): Promise<void> {
  rt.takeCharge();
  rt.timers.clear('retry', 'limit');
  rt.cancelRetry();
  const t = rt.terminal;
  if (t) {
    rt.markStopping();
    // kill(), not dispose(): a tmux session must end too, with everything the agent started.
    await t.kill();
    return;
  }
  ports.store.write(rt, (s) => ({ ...s, intent: { kind: 'user-stopped' } }));
  ports.store.log(rt, 'SESSION STOPPED - by the user');
  ports.moves.move(rt, 'stop');
  ports.emit({ type: 'session.stopped', ...ports.moves.base(rt), by: 'user' });
}
