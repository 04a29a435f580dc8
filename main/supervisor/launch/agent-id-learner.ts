// Learns and records the session id of an agent that picks its own (codex, DESIGN.md §5
// "discovered"): from the moment it is launched (or re-attached without a recorded id) the profile's
// discoverSessionId is polled (watchAgentSessionId: briskly at first, then slowly, until it answers),
// and the id goes into session.json with the cwd it runs in, so a crash right after the first turn
// still resumes that conversation. Runs in the supervisor's process.
import type { Terminal } from '../../terminals/terminal.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import type { Env } from '../../agents/profile.js';
import type { Cancel, Scheduler } from '../../power/clock.js';

/** What learning an agent's id uses. */
export interface AgentIdLearnerPorts {
  env: Env;
  scheduler: Scheduler;
  store: Pick<SessionStore, 'write' | 'log'>;
  /** Every session of this supervisor: ids other sessions hold are never ours. */
  sessions(): Iterable<SessionRuntime>;
}

export class AgentIdLearner {
  constructor(private readonly ports: AgentIdLearnerPorts) {}

  /** Whether a launch of `rt` with this agent session id must learn the id the agent picks. */
  learns(rt: SessionRuntime, launchIdKnown: boolean): boolean {
    return rt.profile.idSource === 'discovered' && !launchIdKnown;
  }

  /** Polls for the id the agent in `terminal` picks, counting from `sinceWallMs`, until found or the run ends. */
  watch(rt: SessionRuntime, terminal: Terminal, sinceWallMs: number): void {
    rt.learnIdSince(sinceWallMs);
    rt.timers.set(
      'id-watch',
      watchAgentSessionId({
        scheduler: this.ports.scheduler,
        discover: async () => (rt.terminal === terminal ? this.discover(rt) : null),
        onFound: () => rt.timers.fired('id-watch'),
      }),
    );
  }

  /**
   * One look for the id the agent picked since its latest launch; recorded in session.json (with the
   * cwd it runs in) and the work log when found. The recorded id, or null.
   */
  async discover(rt: SessionRuntime): Promise<string | null> {
    if (rt.idSince === null || rt.session.agent.sessionId !== null) return rt.session.agent.sessionId;
    const since = rt.idSince;
    const cwd = rt.run?.spec?.cwd ?? rt.session.agent.cwd ?? rt.projectDir;
    const taken: string[] = [];
    for (const o of this.ports.sessions()) if (o !== rt && o.session.agent.sessionId !== null) taken.push(o.session.agent.sessionId);
    const id = await rt.profile.discoverSessionId({ cwd, startedAtMs: since, taken }, this.ports.env).catch(() => null);
    if (id === null || rt.idSince !== since) return null;
    rt.learnIdSince(null);
    this.ports.store.write(rt, (s) => ({ ...s, agent: { ...s.agent, sessionId: id, cwd } }));
    this.ports.store.log(rt, `AGENT SESSION - ${rt.profile.label} session ${id} recorded; a relaunch resumes it`);
    return id;
  }
}

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
