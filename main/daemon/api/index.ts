// The control API (DESIGN.md §12): each method's handler (handlers.ts) behind the one dispatch
// (dispatch.ts), which checks `hello`, applies the approval gate, and validates params with the
// method's schema before any handler runs. Runs in the daemon.
export type { Connection, DaemonContext, DaemonHooks, RequestContext } from './context.js';
export { dispatch } from './dispatch.js';
