// What every handler of the control API gets (DESIGN.md §12): the supervisor, the Mori home, the
// daemon's event stream and the hooks its host lends, and the one way a handler finds a session's
// state dir from a name or id the client sent. Runs in the daemon.
import type { DaemonSettings } from '../../../common/daemon-settings.js';
import { fail, ok, type Failure, type Result } from '../../../common/result.js';
import type { PowerWatch } from '../../power/power-watch.js';
import { projectDirOf } from '../../state/project-dir.js';
import { resolveSession } from '../../state/resolve-session.js';
import { readSessionFile } from '../../state/session-file.js';
import { confinedStateDir } from '../../state/state-dir.js';
import type { Supervisor } from '../../supervisor/supervisor.js';
import type { DaemonEvents } from '../daemon-events.js';

/** What the process hosting the daemon (daemon-host.ts) lends the control API. */
export interface DaemonHooks {
  /** The sleep/wake and network watch that power hints feed (the daemon always has one). */
  power?: PowerWatch | null;
  /** Stops the daemon, after the reply to `daemon.stop` is written. */
  stop?: (stopAgents: boolean) => void;
  /** Settings were changed: apply what can be applied while running (probe targets). */
  onSettings?: (settings: DaemonSettings) => void;
}

export interface DaemonContext extends DaemonHooks {
  supervisor: Supervisor;
  home: string;
  events: DaemonEvents;
  startedAt: number;
}

/** One method's handler: params not yet validated in, a Result out. */
export type Handler = (ctx: DaemonContext, raw: unknown) => Result<unknown> | Promise<Result<unknown>>;

/** The answer to params that do not fit the method's schema. */
export const bad = (message: string): Failure => fail('usage', message);

export interface SessionDir {
  stateDir: string;
  id: string;
  name: string;
}

/** A session named by id or name (the supervisor's first, then the registry), confined to its project. */
export function sessionDir(ctx: DaemonContext, ref: string): Result<SessionDir> {
  const known = ctx.supervisor.list().filter((s) => s.id === ref || s.name === ref);
  if (known.length > 1) return fail('usage', `"${ref}" names ${known.length} sessions; give the id`);
  let dir: string;
  if (known[0]) dir = known[0].stateDir;
  else {
    const r = resolveSession(ref, process.cwd(), ctx.home);
    if (!r.ok) return r;
    dir = r.value;
  }
  const session = readSessionFile(dir);
  if (!session.ok) return session;
  // The project is where the state dir lies, never what session.json says (project-dir.ts).
  const project = projectDirOf(dir);
  if (!project.ok) return project;
  const confined = confinedStateDir(project.value, dir);
  if (!confined.ok) return confined;
  return ok({ stateDir: confined.value, id: session.value.id, name: session.value.name });
}
