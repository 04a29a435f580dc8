// Daemon events in a person's words, one line each: `mori up` in the foreground prints them as they
// come, `mori attach host:session` lists those it missed while its connection was down. Runs in the CLI
// process.
import type { DaemonEvent } from '../../common/ipc.js';
import { visibleText } from '../../common/visible-text.js';

/** One line per event for a person watching `mori up`, or catching up on a host after a reconnect; what an agent wrote in it (a message, a summary) is shown by `visibleText`, so the line stays one line. */
export function describeEvent(e: DaemonEvent): string {
  return visibleText(eventWords(e));
}

function eventWords(e: DaemonEvent): string {
  const time = new Date(e.at).toTimeString().slice(0, 8);
  const who = 'name' in e ? `${e.name}: ` : '';
  switch (e.type) {
    case 'supervisor.ready':
      return `${time} supervisor ready (${e.sessions} session${e.sessions === 1 ? '' : 's'}, pid ${e.pid})`;
    case 'session.started':
      return `${time} ${who}started (${e.launch}, ${e.backend}, pid ${e.pid})`;
    case 'session.activity':
      return `${time} ${who}${e.to}`;
    case 'session.exited':
      return `${time} ${who}exited (${e.signal ?? `code ${e.code}`}): ${e.outcome}`;
    case 'session.interrupted':
      return `${time} ${who}interrupted (${e.reason})${e.retryInMs !== null ? `, retrying in ${(e.retryInMs / 1000).toFixed(1)}s` : ''}`;
    case 'session.resuming':
    case 'session.resumed':
      return `${time} ${who}${e.type === 'session.resuming' ? 'resuming' : 'resumed'} (${e.launch})`;
    case 'session.attention':
      return `${time} ${who}NEEDS ATTENTION (${e.reason}): ${e.message}`;
    case 'session.stopped':
      return `${time} ${who}stopped by the ${e.by}`;
    case 'verify.started':
      return `${time} ${who}verifying`;
    case 'verify.finished':
      return `${time} ${who}${e.summary}`;
    case 'session.removed':
      return `${time} ${who}removed${e.stateDeleted ? ', state dir deleted' : ''}`;
    case 'session.registered':
      return `${time} ${who}registered (not started)`;
    case 'session.renamed':
      return `${time} ${who}renamed from ${e.from}`;
    case 'session.permissionMode':
      return `${time} ${who}permission mode ${e.mode}`;
    case 'session.handedOff':
      return `${time} ${who}handed off ${e.from} → ${e.to} (${e.reason})`;
    case 'state.changed':
      return `${time} ${who}${e.file} ${e.change} (not by Mori)`;
    case 'log.appended':
      return `${time} ${who}work log grew`;
    case 'settings.changed':
      return `${time} settings changed`;
    case 'keep-awake':
      return `${time} ${e.holding ? `keeping the machine awake (${e.working} working)` : 'no longer keeping the machine awake'}`;
    case 'checkpoint.written':
      return `${time} ${who}checkpoint${e.changed ? ` (${e.changedFiles} changed files)` : ', unchanged'}`;
    default:
      return `${time} ${e.type}`;
  }
}
