// Which tmux versions the tmux backend can drive, as pure functions (DESIGN.md §6). Control-mode
// subscriptions (`refresh-client -B`) need 3.2 (`respawn-pane -e`, 3.0, comes with them); `remain-on-exit-format`
// (to keep the "Pane is dead" line out of the screen) needs 3.3. Runs in the supervisor's process.

export interface TmuxVersion {
  major: number;
  minor: number;
  /** The text tmux printed, e.g. "3.3a". */
  text: string;
}

export const TMUX_MIN_VERSION = { major: 3, minor: 2 } as const;

/** Parses `tmux -V` output ("tmux 3.3a", "tmux next-3.4", "tmux master"). */
export function parseTmuxVersion(output: string): TmuxVersion | null {
  const m = /(\d+)\.(\d+)([a-z]*)/.exec(output);
  if (!m) return /master/.test(output) ? { major: 99, minor: 0, text: output.trim() } : null;
  return { major: Number(m[1]), minor: Number(m[2]), text: `${m[1]}.${m[2]}${m[3] ?? ''}` };
}

export const versionAtLeast = (v: TmuxVersion, major: number, minor: number): boolean =>
  v.major > major || (v.major === major && v.minor >= minor);

/** Null when usable, else the reason to show the person (why Mori falls back to `direct`). */
export function tmuxUnusableReason(v: TmuxVersion | null, rawOutput: string): string | null {
  if (v === null) return `could not read the tmux version from "${rawOutput.trim().slice(0, 80)}"`;
  if (!versionAtLeast(v, TMUX_MIN_VERSION.major, TMUX_MIN_VERSION.minor)) {
    return `tmux ${v.text} is too old: Mori needs tmux ${TMUX_MIN_VERSION.major}.${TMUX_MIN_VERSION.minor} or newer for control-mode subscriptions`;
  }
  return null;
}
