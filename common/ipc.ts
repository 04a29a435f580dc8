// The request/response contract of the running supervisor (DESIGN.md §9, §11), spoken over the
// control socket `$MORI_HOME/mori.sock` as newline-delimited JSON and, later, over Electron IPC.
// Every payload is a zod schema here: both ends validate what they receive. Pure TypeScript.
import { z } from 'zod';
import { AgentActivity } from './agent-activity.js';
import { RuntimeState, SupervisorEvent } from './events.js';
import { Intent } from './session.js';
import { TERMINAL_MAX_COLS, TERMINAL_MAX_ROWS } from './terminal.js';

/** A session as a request names it: its id (UUID) or its name, as the supervisor knows them. */
const SessionRef = z.string().min(1).max(4096);
/** Keeps one message bounded: a line longer than this is refused (a pasted file goes in chunks). */
export const IPC_MAX_LINE_CHARS = 1_000_000;
const Cols = z.number().int().min(1).max(TERMINAL_MAX_COLS);
const Rows = z.number().int().min(1).max(TERMINAL_MAX_ROWS);

/** What the supervisor tells about one session. */
export const SessionInfo = z.object({
  id: z.string(),
  name: z.string(),
  stateDir: z.string(),
  state: RuntimeState,
  activity: AgentActivity,
  backend: z.enum(['tmux', 'direct']),
  pid: z.number().int().nullable(),
  intent: Intent,
  /** When a restart is scheduled (backoff): epoch ms. */
  nextAttemptAt: z.number().nullable(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** Each method: its params and its result. */
export const IpcMethods = {
  list: { params: z.object({}), result: z.array(SessionInfo) },
  start: { params: z.object({ session: SessionRef }), result: SessionInfo },
  stop: { params: z.object({ session: SessionRef }), result: SessionInfo },
  /** Types `text` into the agent's terminal; `enter` appends a carriage return. */
  send: { params: z.object({ session: SessionRef, text: z.string().max(IPC_MAX_LINE_CHARS / 2), enter: z.boolean().default(true) }), result: z.object({ chars: z.number().int() }) },
  /** Turns the connection into an attachment: frames follow, input/resize/ack/detach are accepted. */
  attach: { params: z.object({ session: SessionRef, cols: Cols, rows: Rows }), result: SessionInfo },
  input: { params: z.object({ data: z.string().max(IPC_MAX_LINE_CHARS / 2) }), result: z.object({}) },
  resize: { params: z.object({ cols: Cols, rows: Rows }), result: z.object({}) },
  ack: { params: z.object({ chars: z.number().int().nonnegative() }), result: z.object({}) },
  detach: { params: z.object({}), result: z.object({}) },
  /** Streams every supervisor event on this connection from now on. */
  subscribe: { params: z.object({}), result: z.object({}) },
} as const;
export type IpcMethod = keyof typeof IpcMethods;
export type IpcParams<M extends IpcMethod> = z.input<(typeof IpcMethods)[M]['params']>;
export type IpcResult<M extends IpcMethod> = z.infer<(typeof IpcMethods)[M]['result']>;
export const IPC_METHODS = Object.keys(IpcMethods) as IpcMethod[];

/** One request line: `{ id, method, params }`. The params are validated against the method's schema. */
export const IpcRequestEnvelope = z.object({
  id: z.number().int().nonnegative(),
  method: z.enum(IPC_METHODS as [IpcMethod, ...IpcMethod[]]),
  params: z.unknown().default({}),
});
export type IpcRequestEnvelope = z.infer<typeof IpcRequestEnvelope>;

const ErrorCode = z.enum(['usage', 'not-found', 'unreadable', 'conflict', 'untrusted', 'failed']);

/** What the supervisor sends: replies to requests, and stream messages (events, frames, detach). */
export const IpcServerMessage = z.union([
  z.object({ kind: z.literal('reply'), id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ kind: z.literal('reply'), id: z.number().int(), ok: z.literal(false), code: ErrorCode, message: z.string() }),
  z.object({ kind: z.literal('event'), event: SupervisorEvent }),
  z.object({
    kind: z.literal('frame'),
    frame: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('snapshot'), data: z.string(), size: z.object({ cols: z.number(), rows: z.number() }) }),
      z.object({ kind: z.literal('output'), data: z.string() }),
    ]),
  }),
  /** The attachment ended: the agent exited, the session was stopped, or the supervisor is stopping. */
  z.object({ kind: z.literal('detached'), reason: z.string() }),
]);
export type IpcServerMessage = z.infer<typeof IpcServerMessage>;

/** Validates one method's params: the parsed value, or the first problem as text. */
export function parseParams<M extends IpcMethod>(method: M, params: unknown): { ok: true; value: z.infer<(typeof IpcMethods)[M]['params']> } | { ok: false; message: string } {
  const r = IpcMethods[method].params.safeParse(params ?? {});
  if (r.success) return { ok: true, value: r.data as z.infer<(typeof IpcMethods)[M]['params']> };
  const issue = r.error.issues[0];
  return { ok: false, message: `${method}: ${issue && issue.path.length > 0 ? issue.path.join('.') + ': ' : ''}${issue?.message ?? 'invalid params'}` };
}
