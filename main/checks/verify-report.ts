// A verification as the daemon reports it (DESIGN.md §7, §12): verifySession run once, its summary
// line, whether it passed, the document `mori verify --json` prints, and the change that records it
// in session.json (the supervisor's journal hands it to the SessionStore). Runs in the supervisor.
import { verificationPassed } from '../../common/checks.js';
import { ok, type Result } from '../../common/result.js';
import type { SessionChange } from '../state/session-file.js';
import { verifySession } from './verify-session.js';

export interface VerifyReport {
  ok: boolean;
  summary: string;
  /** The document `mori verify --json` prints. */
  value: Record<string, unknown>;
  /** The change of session.json that records the results, for its writer. */
  record: SessionChange;
}

/** Runs the checks once, as `mori verify` does. */
export async function verifyChecks(home: string, stateDir: string, restartServices: boolean, signal?: AbortSignal): Promise<Result<VerifyReport>> {
  const v = await verifySession(stateDir, { restartServices, home, ...(signal ? { signal } : {}) });
  if (!v.ok) return v;
  const { record, ...found } = v.value;
  const passed = verificationPassed(found.summary);
  return ok({
    ok: passed,
    summary: found.summary.text,
    value: { ok: passed, ...(passed ? {} : { code: 'failed' }), message: found.summary.text, stateDir, ...found },
    record,
  });
}
