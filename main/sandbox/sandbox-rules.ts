// The rules of one session's sandbox, the same for every platform (DESIGN.md §11 "Sandbox"): what the
// agent, its hooks and its checks may write, may read, must not see, and how they reach the network.
// Built per launch from the session, its agent profile and the daemon's settings; turned into
// bubblewrap arguments on Linux and a Seatbelt profile on macOS. Pure data, no I/O: runs in the daemon.

/** How a sandboxed session reaches the network. */
export type SandboxNetwork =
  /** As the person's own processes do: the agents need their APIs. */
  | 'full'
  /** Nothing but its own loopback (a network namespace of its own). */
  | 'none'
  /** Only the hosts listed, through a proxy outside the sandbox reached over a bound unix socket. */
  | 'allowlist';

/** What the sandbox shows of the person's home outside the paths listed. */
export type SandboxHome = 'read-only' | 'hidden';

export interface SandboxRules {
  /** Paths bound read-write (the project or worktree, the session's three state files, the agent CLI's own dirs, this launch's hook spool). Absolute. */
  readWrite: string[];
  /** Paths bound read-only (session.json, transcript/, the hook report script, paths the person lists). Absolute. */
  readOnly: string[];
  /** Paths covered by an empty directory ($MORI_HOME, /run/user/<uid>, other sessions' state dirs…): the binds above that lie inside one are put back over it. Absolute. */
  hidden: string[];
  /** The rest of $HOME. */
  home: SandboxHome;
  network: SandboxNetwork;
  /** With `allowlist`: the hosts passed, `host` or `*.domain`, each with an optional `:port`. */
  allowedHosts: string[];
}
