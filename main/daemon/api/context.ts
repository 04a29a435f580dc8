// What every handler of the control API gets (DESIGN.md §12): the supervisor, the Mori home, the
// daemon's event stream, the usage readers and the hooks its host lends, the connection the request came on, and the one
// way a handler finds a session's state dir from a name or id the client sent. Runs in the daemon.
import type { DaemonSettings } from '../../../common/daemon-settings.js';
import type { IpcMethod, IpcParsedParams, IpcResult, IpcServerMessage } from '../../../common/ipc.js';
import { fail, ok, type Failure, type Result } from '../../../common/result.js';
import type { PowerWatch } from '../../power/power-watch.js';
import { projectDirOf } from '../../state/project-dir.js';
import { resolveSession } from '../../state/resolve-session.js';
import { readSessionFile } from '../../state/session-file.js';
import { confinedStateDir } from '../../state/state-dir.js';
import type { Supervisor } from '../../supervisor/supervisor.js';
import type { Attachment, Terminal } from '../../terminals/terminal.js';
import type { DaemonEvents } from '../daemon-events.js';
import type { PeerLookup } from '../peer-process.js';
import type { UsageBook } from '../usage-book.js';

/** What the process hosting the daemon (daemon-host.ts) lends the control API. */
export interface DaemonHooks {
  /** The sleep/wake and network watch that power hints feed (the daemon always has one). */
  power?: PowerWatch | null;
  /** Stops the daemon, after the reply to `daemon.stop` is written. */
  stop?: (stopAgents: boolean) => void;
  /** Settings were changed: apply what can be applied while running (probe targets). */
  onSettings?: (settings: DaemonSettings) => void;
  /** The usage readers, when the daemon's host made them first (its resume policy reads them too). */
  usage?: UsageBook;
  /** Whether it keeps the machine awake now, and for how many working sessions (keep-awake-host.ts). */
  awake?: () => IpcResult<'daemon.awake'>;
  /** Sends one test notice to each target off the machine (notice-host.ts). */
  notifyTest?: () => Promise<IpcResult<'notify.test'>>;
}

export interface DaemonContext extends DaemonHooks {
  supervisor: Supervisor;
  home: string;
  events: DaemonEvents;
  startedAt: number;
  /** Each session's usage reader, kept between requests (offsets persist). */
  usage: UsageBook;
}

/** One client connection as its handlers see it: what it said in `hello`, its attachment, its subscription. */
export interface Connection {
  hello: 'none' | 'ok' | 'other-version';
  peerProtocol: number;
  attached: { attachment: Attachment; terminal: Terminal } | null;
  unsubscribe: (() => void) | null;
  /** Queues one stream message to this connection (bounded by the control server). */
  send(m: IpcServerMessage): void;
  /** Ends this connection's attachment, if any. */
  detach(): void;
  /** The processes on the other end, for the approval gate. */
  peer(): Promise<PeerLookup>;
}

/** A request's context: the daemon's, and the connection it came on. */
export interface RequestContext extends DaemonContext {
  connection: Connection;
}

/**
 * One method's handler: params already validated with its schema in, a Result of its result schema
 * out. One that needs no I/O answers at once (not a promise), so its reply keeps its place before the
 * replies to requests sent after it (a `hello` followed at once by a request).
 */
export type Handler<M extends IpcMethod> = (params: IpcParsedParams<M>, ctx: RequestContext) => Result<IpcResult<M>> | Promise<Result<IpcResult<M>>>;

/** Every method's handler: the compiler holds that none is missing. */
export type HandlerMap = { [M in IpcMethod]: Handler<M> };

/** A request that fits the schema but not the situation (a missing command, an unknown placeholder). */
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
