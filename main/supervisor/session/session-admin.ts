// Removing and renaming a session the supervisor holds (DESIGN.md §9, §12). A removal stops the agent
// as the person's stop does (its whole process group, a tmux session with it), waits for its exit, lets
// go of the session (lock, timers), unregisters it, drops the person's approvals for its state dir and,
// only when asked, deletes the state dir. A rename is refused while the agent runs or a restart is
// scheduled (its environment and transcript name the state dir); otherwise the session is let go, its
// state dir moved, its approvals carried over, and it is loaded again under its new name with the same
// id. What is done once nothing drives the session is session-removal.ts's, shared with the CLI when no
// daemon runs. While either rewrites the registry the session's id is held out of loading
// (session-set.ts), so the registry's watch does not load it again in between. Runs in the
// supervisor's process.
import type { SupervisorEvent } from '../../../common/events.js';
import type { LiveSession } from '../../../common/ipc.js';
import { fail, ok, type Result } from '../../../common/result.js';
import type { PowerClock, Scheduler } from '../../power/clock.js';
import { readRegistry } from '../../state/registry.js';
import type { TmuxBackend } from '../../terminals/tmux/tmux-backend.js';
import type { SessionRuntime } from './session-runtime.js';
import type { SessionSet } from './session-set.js';
import { sessionInfo } from './session-info.js';
import { removeSessionFiles, renameSessionFiles, type RegisteredSession, type Removed } from './session-removal.js';

export type { Removed } from './session-removal.js';

/** How long a removal waits for the stopped agent's exit to be handled: a tmux kill and the exit poll take well under a second; headroom for a loaded machine. */
const STOP_WAIT_MS = 15_000;
/** How often the wait looks. */
const STOP_POLL_MS = 50;

/** States in which nothing runs or is about to: a rename may move the state dir. */
const AT_REST = new Set<LiveSession['state']>(['idle', 'stopped', 'finished', 'attention']);

export interface SessionAdminPorts {
  home: string;
  sessions: SessionSet;
  tmux: TmuxBackend | null;
  /** The person's stop (Supervisor.stopSession). */
  stop: (ref: string) => Promise<Result<LiveSession>>;
  emit: (e: SupervisorEvent) => void;
  /** Wall time for events, monotonic time for the wait on a stopped agent's exit. */
  clock: PowerClock;
  scheduler: Scheduler;
  /** Resolves once every checkpoint begun so far is written (a stop takes one): none may write into a moved or deleted dir. */
  checkpointsSettled: () => Promise<void>;
}

export class SessionAdmin {
  constructor(private readonly ports: SessionAdminPorts) {}

  async remove(ref: string, deleteState: boolean): Promise<Result<Removed>> {
    const found = this.ports.sessions.find(ref);
    if (!found.ok && found.code === 'not-found') return this.removeUnloaded(ref, deleteState);
    if (!found.ok) return found;
    const rt = found.value;
    const stopped = await this.stopAndWait(rt);
    if (!stopped.ok) return stopped;
    return this.holding(rt.id, () => {
      this.ports.sessions.forget(rt.id);
      return this.unregister({ id: rt.id, name: rt.name, stateDir: rt.stateDir }, deleteState);
    });
  }

  async rename(ref: string, name: string): Promise<Result<LiveSession>> {
    const found = this.ports.sessions.find(ref);
    if (!found.ok) return found;
    const rt = found.value;
    const state = sessionInfo(rt).state;
    if (rt.terminal !== null || !AT_REST.has(state)) {
      return fail('conflict', `session "${rt.name}" is ${state}: stop it first (\`mori stop ${rt.name}\`), then rename it; its agent was given the state dir's path`);
    }
    await this.ports.checkpointsSettled();
    const moved = await this.holding(rt.id, () => {
      this.ports.sessions.forget(rt.id);
      return renameSessionFiles(this.ports.home, rt.stateDir, name);
    });
    // Loaded again at once after the hold ends (no await between): the watch finds it loaded.
    const loaded = this.ports.sessions.load(moved.ok ? moved.value.stateDir : rt.stateDir);
    if (!moved.ok) return moved;
    if (!loaded.ok) return fail(loaded.code, `renamed to "${name}" (${moved.value.stateDir}), but it could not be loaded again: ${loaded.message}`);
    this.ports.emit({ type: 'session.renamed', at: this.ports.clock.wallMs(), sessionId: rt.id, name, from: moved.value.from });
    return ok(sessionInfo(loaded.value));
  }

  /**
   * A registered session this supervisor could not load (a session.json that does not parse, a state
   * dir that is a symlink): it runs no agent here, so it is only unregistered (and a leftover tmux
   * session of its id ended). Its state dir is deleted only when it is a real directory of its project.
   */
  private async removeUnloaded(ref: string, deleteState: boolean): Promise<Result<Removed>> {
    const registry = readRegistry(this.ports.home);
    if (!registry.ok) return registry;
    const entries = registry.value.filter((e) => e.id === ref || e.name === ref);
    if (entries.length > 1) return fail('usage', `"${ref}" names ${entries.length} sessions; give the id`);
    const entry = entries[0];
    if (!entry) return fail('not-found', `no session "${ref}" in the registry (see \`mori ls\`)`);
    // Held too: the registry's watch may be about to load it (registered a moment ago, or retried).
    return this.holding(entry.id, () => this.unregister(entry, deleteState));
  }

  /**
   * Runs `change` (which lets go of session `id` and rewrites its registry entry) with the id held
   * out of loading, so the registry's watch cannot load the old entry in between. Only memory is
   * held: after a crash the registry alone says what the next supervisor loads.
   */
  private async holding<T>(id: string, change: () => Promise<T>): Promise<T> {
    const release = this.ports.sessions.hold(id);
    try {
      return await change();
    } finally {
      release();
    }
  }

  /** Removed (session-removal.ts), then announced. */
  private async unregister(s: RegisteredSession, deleteState: boolean): Promise<Result<Removed>> {
    const gone = await removeSessionFiles(this.ports, s, deleteState);
    if (!gone.ok) return gone;
    this.ports.emit({ type: 'session.removed', at: this.ports.clock.wallMs(), sessionId: s.id, name: s.name, stateDeleted: gone.value.stateDeleted });
    return gone;
  }

  /** The person's stop, then the wait until the exit is handled (the session writes nothing more). */
  private async stopAndWait(rt: SessionRuntime): Promise<Result<true>> {
    const r = await this.ports.stop(rt.id);
    if (!r.ok) return r;
    const { clock, scheduler } = this.ports;
    for (const deadline = clock.monoMs() + STOP_WAIT_MS; rt.terminal !== null; ) {
      if (clock.monoMs() > deadline) return fail('failed', `session "${rt.name}": its agent did not exit within ${STOP_WAIT_MS / 1000} s of being stopped; nothing was removed`);
      await new Promise<void>((resolve) => scheduler.after(STOP_POLL_MS, resolve, true));
    }
    rt.timers.clear();
    await this.ports.checkpointsSettled();
    return ok(true);
  }
}
