// Learning the id of an agent that picks its own session id (codex, DESIGN.md §5 "discovered"):
// after a launch the profile's discoverSessionId is polled until it answers, so the id is in
// session.json from the agent's first turn on and no crash can lose it. Runs in the supervisor.
import type { Cancel, Scheduler } from '../../power/clock.js';

/** Codex writes its session record when the first prompt is submitted: poll briskly at first... */
export const AGENT_ID_FAST_POLL_MS = 1_000;
/** ...for this long (a prompt on argv is submitted within seconds of the start)... */
export const AGENT_ID_FAST_FOR_MS = 120_000;
/** ...then slowly, for an agent started bare whose first prompt a person types later. */
export const AGENT_ID_SLOW_POLL_MS = 15_000;

export interface AgentIdWatch {
  /** One look; null while the agent has not recorded its session yet. Errors count as null. */
  discover: () => Promise<string | null>;
  onFound: (id: string) => void;
  scheduler: Scheduler;
}

/** Polls until an id is found or the returned cancel is called (the terminal ended, a new launch). */
export function watchAgentSessionId(w: AgentIdWatch): Cancel {
  let stopped = false;
  let timer: Cancel | null = null;
  let waited = 0;
  const look = async (): Promise<void> => {
    timer = null;
    const id = await w.discover().catch(() => null);
    if (stopped) return;
    if (id !== null) {
      stopped = true;
      w.onFound(id);
      return;
    }
    const next = waited < AGENT_ID_FAST_FOR_MS ? AGENT_ID_FAST_POLL_MS : AGENT_ID_SLOW_POLL_MS;
    waited += next;
    timer = w.scheduler.after(next, () => void look());
  };
  timer = w.scheduler.after(0, () => void look());
  return () => {
    stopped = true;
    timer?.();
    timer = null;
  };
}
