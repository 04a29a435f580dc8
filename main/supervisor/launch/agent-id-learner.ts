// Learns and records the session id of an agent that picks its own (codex, DESIGN.md §5
// "discovered"): from the moment it is launched (or re-attached without a recorded id) the profile's
// discoverSessionId is polled (agent-id-watch.ts), and the id goes into session.json with the cwd it
// runs in, so a crash right after the first turn still resumes that conversation. Runs in the
// supervisor's process.
import type { Terminal } from '../../terminals/terminal.js';
import { watchAgentSessionId } from './agent-id-watch.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import type { Env } from '../../agents/profile.js';
import type { Scheduler } from '../../power/clock.js';

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
