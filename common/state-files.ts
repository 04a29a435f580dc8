// The names of a state dir's files (DESIGN.md §3), defined here once for every process: the three
// markdown files the agent and the person share, the work log's archive, and Mori's own session.json.
// Pure TypeScript, shared by main, preload and the renderer.

export const SESSION_STATE = 'session_state.md';
export const ENVIRONMENT = 'environment.md';
export const WORK_LOG = 'work_log.md';
/** Where older work-log entries go once the log passes its budget. */
export const WORK_LOG_ARCHIVE = 'work_log.archive.md';
export const SESSION_FILE = 'session.json';

/** The state files a client may read and write; session.json is Mori's own. */
export const EDITABLE_STATE_FILES = [SESSION_STATE, ENVIRONMENT, WORK_LOG] as const;
/** The state files whose changes by someone else are events (`state.changed`). */
export const STATE_FILES = [...EDITABLE_STATE_FILES, SESSION_FILE] as const;
export type StateFileName = (typeof STATE_FILES)[number];
