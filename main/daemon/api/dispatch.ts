// The one dispatch of the control API (DESIGN.md §11, §12): a connection says `hello` first; an
// approving or launching request from inside a supervised agent's process tree is refused (approval-gate.ts) and
// recorded for the person; a client of another protocol version may only stop the daemon; then the
// params are validated with the method's schema and its handler (handlers.ts) runs. Runs in the daemon.
import { parseParams, PROTOCOL_VERSION, REPLACE_DAEMON_HINT, type IpcMethod } from '../../../common/ipc.js';
import { fail, type Failure, type Result } from '../../../common/result.js';
import { appendEntry } from '../../state/work-log.js';
import { agentRefusedAction, judgePeer, runningAgents } from '../approval-gate.js';
import type { Handler, RequestContext } from './context.js';
import { HANDLERS } from './handlers.js';

/** A refused approval is recorded at most this often per session and method: an agent asking in a loop must not fill the logs. */
const REFUSAL_RECORD_EVERY_MS = 60_000;
/** When a refusal was last recorded, by state dir and method. One daemon per process. */
const refusalRecorded = new Map<string, number>();

/**
 * Answers one request of a connection. Only an approving request waits (for the peer lookup) before
 * its handler runs; the others are handled at once, so a connection's quick replies keep their order.
 */
export function dispatch(ctx: RequestContext, method: IpcMethod, raw: unknown): Result<unknown> | Promise<Result<unknown>> {
  if (method === 'hello') return handle(ctx, method, raw);
  if (ctx.connection.hello === 'none') return fail('usage', `${method}: say hello first ({"method":"hello","params":{"protocol":${PROTOCOL_VERSION}}})`);
  const action = agentRefusedAction(method, raw);
  if (action === null) return handle(ctx, method, raw);
  return refusedApproval(ctx, method, action).then((refused) => refused ?? handle(ctx, method, raw));
}

/** The version check, the params validated with the method's schema, then its handler. */
function handle(ctx: RequestContext, method: IpcMethod, raw: unknown): Result<unknown> | Promise<Result<unknown>> {
  // `daemon.stop` is understood across versions: it is how an old daemon is replaced.
  if (method !== 'hello' && ctx.connection.hello === 'other-version' && method !== 'daemon.stop') {
    return fail('conflict', `the Mori daemon speaks protocol ${PROTOCOL_VERSION}, this client ${ctx.connection.peerProtocol}: replace it with \`${REPLACE_DAEMON_HINT}\``);
  }
  const p = parseParams(method, raw);
  if (!p.ok) return fail('usage', p.message);
  // The map pairs each method with its handler; TypeScript cannot follow `method` through the lookup.
  return (HANDLERS[method] as Handler<IpcMethod>)(p.value as never, ctx);
}

/** An approving request from inside a supervised agent's process tree: the refusal, logged for the person. */
async function refusedApproval(ctx: RequestContext, method: IpcMethod, action: string): Promise<Failure | null> {
  const agents = runningAgents(ctx.supervisor.list());
  if (agents.length === 0) return null;
  const refusal = judgePeer(await ctx.connection.peer(), agents, action);
  if (!refusal) return null;
  // Told once a minute per session and method, in the daemon's log and where the person reads what
  // the session did (the window's log, `mori status`): an agent asking in a loop fills neither.
  const dir = refusal.agent?.stateDir ?? null;
  const key = `${dir ?? '(unknown)'}\0${method}`;
  if (Date.now() - (refusalRecorded.get(key) ?? 0) < REFUSAL_RECORD_EVERY_MS) return refusal.failure;
  refusalRecorded.set(key, Date.now());
  process.stderr.write(`mori: refused ${method}: ${refusal.failure.message}\n`);
  if (dir) {
    try {
      appendEntry(dir, [`APPROVAL REFUSED - ${method} asked from inside this session's agent: ${refusal.failure.message}`]);
    } catch (err) {
      process.stderr.write(`mori: could not record the refusal in ${dir}: ${(err as Error).message}\n`);
    }
  }
  return refusal.failure;
}
