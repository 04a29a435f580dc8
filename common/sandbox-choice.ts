// A new session's sandbox (DESIGN.md §11 "Sandbox"): the person's `--sandbox`/`--no-sandbox` (or the
// dialog's choice), else the daemon's default, with the settings' network (or the dialog's) and home. Pure, shared by
// the CLI, the daemon and the window.
import type { SandboxSettings } from './daemon-settings.js';
import { ok, type Result } from './result.js';
import type { SessionSandbox } from './session.js';

/** The sandbox recorded for a new session; undefined (none recorded) when it is off. */
export function newSessionSandbox(asked: boolean | undefined, settings: SandboxSettings, network?: SessionSandbox['network']): Result<SessionSandbox | undefined> {
  const on = asked ?? settings.default;
  if (!on) return ok(undefined);
  return ok({ on: true, network: network ?? settings.network, home: settings.home });
}
