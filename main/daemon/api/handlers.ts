// Every method of the control API (DESIGN.md §12) mapped to its handler, grouped by namespace in the
// files beside this one. dispatch.ts is the one caller. Runs in the daemon.
import { diffSessionChanges, listSessionChanges, listSessionCheckpoints, rollbackSessionFiles, takeSessionCheckpoint } from './checkpoints.js';
import { listSessionChecks, trustAgentCommand, trustSessionChecks, verifySessionChecks } from './checks.js';
import { ack, attach, detach, eventsRecent, eventsSince, hello, hold, input, resize, subscribe } from './connection.js';
import type { HandlerMap } from './context.js';
import { daemonAwake, stopDaemon } from './daemon.js';
import { networkHintHandler, powerHintHandler } from './hints.js';
import { appendWorkLog, tailWorkLog } from './log.js';
import { handOffSession, initSession, limitDontResume, limitResumeNow, listSessions, listSessionsWithState, renameSession, sendToSession, startSession, stopSession } from './sessions.js';
import { addNotifyTarget, listTargets, removeNotifyTarget, testNotifyTargets } from './notify.js';
import { getSettings, setSettings } from './settings.js';
import { removeSession } from './session-remove.js';
import { readState, writeState } from './state.js';
import { readSessionTranscript } from './transcript.js';
import { readUsage } from './usage.js';
import { readReport } from './report.js';

/** Each method's handler; a method without one does not compile. */
export const HANDLERS: HandlerMap = {
  hello,
  'daemon.stop': stopDaemon,
  'daemon.awake': daemonAwake,
  list: listSessions,
  'sessions.listing': listSessionsWithState,
  start: startSession,
  stop: stopSession,
  'limit.resume-now': limitResumeNow,
  'limit.dont-resume': limitDontResume,
  send: sendToSession,
  attach,
  input,
  resize,
  ack,
  hold,
  detach,
  subscribe,
  'events.since': eventsSince,
  'events.recent': eventsRecent,
  'session.init': initSession,
  'session.rename': renameSession,
  'session.handoff': handOffSession,
  'session.remove': removeSession,
  'state.read': readState,
  'state.write': writeState,
  'log.tail': tailWorkLog,
  'log.append': appendWorkLog,
  'transcript.read': readSessionTranscript,
  'usage.read': readUsage,
  'report.read': readReport,
  'checks.list': listSessionChecks,
  'checks.verify': verifySessionChecks,
  'checks.trust': trustSessionChecks,
  'agent.trust': trustAgentCommand,
  'checkpoints.list': listSessionCheckpoints,
  'checkpoint.take': takeSessionCheckpoint,
  'changes.list': listSessionChanges,
  'changes.diff': diffSessionChanges,
  rollback: rollbackSessionFiles,
  'settings.get': getSettings,
  'settings.set': setSettings,
  'notify.list': listTargets,
  'notify.add': addNotifyTarget,
  'notify.remove': removeNotifyTarget,
  'notify.test': testNotifyTargets,
  'hint.power': powerHintHandler,
  'hint.network': networkHintHandler,
};
