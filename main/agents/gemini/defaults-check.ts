// Whether Gemini CLI 0.61.0 will read a system-defaults file (DESIGN.md §4 "Hooks"): it reads
// GEMINI_CLI_SYSTEM_DEFAULTS_PATH only when every directory above the file and the file itself are
// owned by root (uid 0) and writable by neither group nor others, the canonical path too; otherwise
// it skips the file and prints a security warning on its screen. Mori checks the same rule before it
// names its hooks layer there, so a layer Gemini would skip is not handed over at all. A few sync
// stats; any Node process.
import { lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** Group- and other-write bits (S_IWGRP | S_IWOTH). */
const GROUP_OR_OTHER_WRITE = 0o022;

/** The directories above `file`, nearest first, up to and including `/`. */
function ancestors(file: string): string[] {
  const out: string[] = [];
  let dir = path.dirname(file);
  for (;;) {
    out.push(dir);
    const up = path.dirname(dir);
    if (up === dir) return out;
    dir = up;
  }
}

/** Why `p` fails Gemini CLI's rule, or null when it passes (or is not there, as Gemini counts it). */
function refusal(p: string): string | null {
  try {
    if (lstatSync(p).isSymbolicLink() && lstatSync(p).uid !== 0) return `${p} is a symbolic link not owned by root`;
    const st = statSync(p);
    if (st.uid !== 0) return `${p} is not owned by root`;
    if ((st.mode & GROUP_OR_OTHER_WRITE) !== 0) return `${p} is writable by group or others (mode ${(st.mode & 0o7777).toString(8)})`;
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? null : `${p}: ${code ?? String(err)}`;
  }
}

/** Why Gemini CLI would skip `file` as its system defaults, or null when it would read it. */
export function geminiDefaultsRefusal(file: string): string | null {
  const abs = path.resolve(file);
  let real = abs;
  try {
    real = realpathSync(abs);
  } catch {
    real = abs; // not there yet: the path as given
  }
  const chains = real === abs ? [abs] : [abs, real];
  for (const f of chains) {
    for (const p of [...ancestors(f), f]) {
      const why = refusal(p);
      if (why !== null) return why;
    }
  }
  return null;
}
