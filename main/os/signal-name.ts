// Signal numbers as the names Node and the person know them (`SIGTERM`), from the platform's own
// table. Pure; any Node process.
import { constants } from 'node:os';

/** The name of signal `n` (`SIGTERM` for 15 on Linux); `SIG<n>` when this platform has no name for it. */
export function signalName(n: number): string {
  return Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `SIG${n}`;
}
