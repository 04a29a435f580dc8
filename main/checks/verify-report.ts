// A verification as the daemon reports it (DESIGN.md §7, §12): verifySession run once, its summary
// line, whether it passed, and the document `mori verify --json` prints. Runs in the supervisor.
import { verificationPassed } from '../../common/checks.js';
import { ok, type Result } from '../../common/result.js';
import { verifySession } from './verify-session.js';

export interface VerifyReport {
  ok: boolean;
  summary: string;
  /** The document `mori verify --json` prints. */
  value: Record<string, unknown>;
}

/** Runs the checks once, as `mori verify` does. */
export async function verifyChecks(home: string, stateDir: string, restartServices: boolean, signal?: AbortSignal): Promise<Result<VerifyReport>> {
  const v = await verifySession(stateDir, { restartServices, home, ...(signal ? { signal } : {}) });
  if (!v.ok) return v;
  const passed = verificationPassed(v.value.summary);
  return ok({
    ok: passed,
    summary: v.value.summary.text,
    value: { ok: passed, ...(passed ? {} : { code: 'failed' }), message: v.value.summary.text, stateDir, ...v.value },
  });
}
