// Helpers for reading an agent's own records of its sessions (DESIGN.md §5): whether a file is
// there, the forms a cwd is keyed by, and whether a record was written since a time. Every agent
// file is stat'ed through main/os/agent-file.ts (these dirs are the agents' own: a FIFO, symlink or
// huge file there is skipped, never waited on). Runs in the supervisor's process.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isAgentFileError, statAgentFile } from '../os/agent-file.js';

/** Entries listed per dir of an agent's: far above what a CLI writes there, so a flooded dir is not listed whole. */
export const MAX_DIR_ENTRIES = 10_000;

export async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

/** The cwd as given and as resolved: claude keys by the real path (e.g. /private/tmp on macOS). */
export async function cwdForms(cwd: string): Promise<string[]> {
  const forms = [path.resolve(cwd)];
  try {
    const real = await fs.realpath(cwd);
    if (!forms.includes(real)) forms.push(real);
  } catch {
    // a cwd that is gone is still looked up by its recorded name
  }
  return forms;
}

/** Modified at or after `sinceMs` (an agent appends the person's prompt to its record when it takes it). */
export async function writtenSince(file: string | null, sinceMs: number): Promise<boolean> {
  if (file === null) return false;
  const st = await statAgentFile(file);
  return !isAgentFileError(st) && st.mtimeMs >= sinceMs;
}
