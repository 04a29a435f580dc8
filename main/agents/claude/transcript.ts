// Where Claude Code keeps its transcript of a session, and whether it is there (DESIGN.md §5):
// `$CLAUDE_CONFIG_DIR/projects/<cwd mangled>/<uuid>.jsonl`. Path rules are pure; the lookups read
// the disk, dirs listed through main/os/agent-file.ts. Checked against Claude Code 2.1.332. Runs in
// the supervisor's process.
import path from 'node:path';
import { listAgentDir } from '../../os/agent-file.js';
import type { Env } from '../profile.js';
import { configDir } from '../launch-helpers.js';
import { cwdForms, exists, MAX_DIR_ENTRIES } from '../record-files.js';

/** Claude Code caps a project dir name at this many characters, then appends a hash (its own constant). */
const CLAUDE_DIR_NAME_MAX = 200;

/** Claude's 32-bit string hash (Java's String.hashCode over UTF-16 units), used for long dir names. */
function claudeStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** `/home/me/proj` → `-home-me-proj`: each non-alphanumeric char becomes '-'; long names are cut and hashed. */
export function claudeProjectDirName(cwd: string): string {
  const name = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (name.length <= CLAUDE_DIR_NAME_MAX) return name;
  return `${name.slice(0, CLAUDE_DIR_NAME_MAX)}-${Math.abs(claudeStringHash(cwd)).toString(36)}`;
}

/** `$CLAUDE_CONFIG_DIR` (default `~/.claude`). */
export const claudeConfigDir = (env: Env): string => configDir(env, 'CLAUDE_CONFIG_DIR', '.claude');

/** `$CLAUDE_CONFIG_DIR/projects/<cwd mangled>/<uuid>.jsonl`. */
export function claudeTranscriptPath(env: Env, cwd: string, sessionId: string): string {
  return path.join(claudeConfigDir(env), 'projects', claudeProjectDirName(cwd), `${sessionId}.jsonl`);
}

export async function claudeTranscriptExists(env: Env, cwd: string, sessionId: string): Promise<boolean> {
  for (const form of await cwdForms(cwd)) {
    if (await exists(claudeTranscriptPath(env, form, sessionId))) return true;
    const name = form.replace(/[^a-zA-Z0-9]/g, '-');
    if (name.length > CLAUDE_DIR_NAME_MAX) {
      // Builds of claude that hash differently still share the prefix; it searches them the same way.
      const prefix = `${name.slice(0, CLAUDE_DIR_NAME_MAX)}-`;
      const projects = path.join(claudeConfigDir(env), 'projects');
      const dirs = (await listAgentDir(projects, MAX_DIR_ENTRIES)).map((e) => e.name);
      for (const dir of dirs) {
        if (dir.startsWith(prefix) && (await exists(path.join(projects, dir, `${sessionId}.jsonl`)))) return true;
      }
    }
  }
  return false;
}
