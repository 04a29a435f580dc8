// Values Mori hands to tmux where tmux expands formats (`man tmux`, FORMATS): there `#(cmd)` runs
// `cmd` in the tmux server and `#{…}` is replaced, so a directory named `x#(touch m)` — legal, and
// anything in the project can create it — would run a command. Checked against tmux 3.3a:
// - expanded: the start directory, `-c` of new-session and respawn-pane; new-session's `-s` name;
//   option values set with `-F`; the command of a `run-shell` (as in a hook) when it runs.
// - not expanded: the program's words, `-e` environment values, option values set without `-F`,
//   new-session's `-n` window name, `-t` targets (matched, not expanded), `send-keys -H` bytes.
// Mori's session names are `mori-<terminal id>` (TERMINAL_ID_PATTERN: no `#`), it names no window,
// sets no option with `-F`, and its one hook's run-shell holds only the pane's tty as tmux named it;
// the start directory is the one value from outside, escaped here. Pure.

/** `value` as a tmux format that expands to exactly `value`: every `#` doubled (`##` is a literal `#`). */
export function formatLiteral(value: string): string {
  return value.replace(/#/g, '##');
}
