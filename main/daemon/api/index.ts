// The control API's methods beyond a session's terminal (DESIGN.md §12), each method mapped to its
// handler: the daemon (stop), sessions (init), state files with versions, the work log, the
// transcript, checks, settings, and power and network hints. Each handler validates its params with
// common/ipc.ts and answers a Result. Runs in the daemon.
import type { IpcMethod } from '../../../common/ipc.js';
import { fail, type Result } from '../../../common/result.js';
import { listSessionChecks, trustSessionChecks, verifySessionChecks } from './checks.js';
import type { DaemonContext, Handler } from './context.js';
import { stopDaemon } from './daemon.js';
import { networkHintHandler, powerHintHandler } from './hints.js';
import { appendWorkLog, tailWorkLog } from './log.js';
import { initSession } from './sessions.js';
import { getSettings, setSettings } from './settings.js';
import { readState, writeState } from './state.js';
import { readSessionTranscript } from './transcript.js';

export type { DaemonContext, DaemonHooks } from './context.js';

/** Each method's handler. */
const HANDLERS: Partial<Record<IpcMethod, Handler>> = {
  'daemon.stop': stopDaemon,
  'session.init': initSession,
  'state.read': readState,
  'state.write': writeState,
  'log.tail': tailWorkLog,
  'log.append': appendWorkLog,
  'transcript.read': readSessionTranscript,
  'checks.list': listSessionChecks,
  'checks.verify': verifySessionChecks,
  'checks.trust': trustSessionChecks,
  'settings.get': getSettings,
  'settings.set': setSettings,
  'hint.power': powerHintHandler,
  'hint.network': networkHintHandler,
};

/** Methods handled here (the terminal and subscription ones are the connection's own). */
export const DAEMON_API_METHODS = new Set<IpcMethod>(Object.keys(HANDLERS) as IpcMethod[]);

export async function handleDaemonRequest(ctx: DaemonContext, method: IpcMethod, raw: unknown): Promise<Result<unknown>> {
  const handler = HANDLERS[method];
  if (!handler) return fail('usage', `${method}: not a daemon method`);
  return handler(ctx, raw);
}
