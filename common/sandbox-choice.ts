// A new session's sandbox (DESIGN.md §11 "Sandbox"): the person's `--sandbox`/`--no-sandbox` (or the
// dialog's choice), else the daemon's default, with the settings' network and home. Pure, shared by
// the CLI, the daemon and the window.
import type { SandboxSettings } from './daemon-settings.js';
import { fail, ok, type Result } from './result.js';
import type { SessionSandbox } from './session.js';

/** The sandbox recorded for a new session; undefined (none recorded) when it is off. Refuses a mode not built yet. */
export function newSessionSandbox(asked: boolean | undefined, settings: SandboxSettings): Result<SessionSandbox | undefined> {
  const on = asked ?? settings.default;
  if (!on) return ok(undefined);
  if (settings.network === 'allowlist') return fail('usage', 'the sandbox network mode "allowlist" (settings.json sandbox.network) is not available yet; set it to "full" or "none"');
  return ok({ on: true, network: settings.network, home: settings.home });
}
