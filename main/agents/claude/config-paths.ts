// Where Claude Code keeps its config, and what a bubblewrap sandbox changes so it can still write
// it (DESIGN.md §11 "Sandbox"). claude keeps its global config `.claude.json` at
// `$CLAUDE_CONFIG_DIR/.claude.json` when that variable is set, else at `~/.claude.json`, beside the
// default dir (checked in the bundled 2.1.332). It rewrites it by a temporary file beside it renamed
// over it: in a sandbox the home is read-only, so a file bound alone can be neither (EROFS for the
// temporary, EBUSY for the rename over a bind mount) and each change is lost. So a sandboxed claude
// gets CLAUDE_CONFIG_DIR set to its default dir, whose whole is bound read-write; its global config
// moves into that dir, seeded once from `~/.claude.json` so its sign-in, trusted folders and servers
// carry over. Pure; runs in the supervisor's process.
import path from 'node:path';
import type { Env } from '../profile.js';
import { homeDir } from '../launch-helpers.js';
import { claudeConfigDir } from './transcript.js';

/** The global config's name (an OAuth deployment other than production adds a suffix, not used with an API key or the stand-ins). */
const GLOBAL_CONFIG = '.claude.json';

const isSet = (v: string | undefined): boolean => v !== undefined && v !== '';

/** Its config dir, and its global config when that sits outside the dir (CLAUDE_CONFIG_DIR unset). */
export function claudeConfigPaths(env: Env): string[] {
  const dir = claudeConfigDir(env);
  return isSet(env['CLAUDE_CONFIG_DIR']) ? [dir] : [dir, path.join(homeDir(env), GLOBAL_CONFIG)];
}

/** In a bubblewrap sandbox: the config dir named, so the global config lives inside it; the home's copy carried over once. */
export function claudeSandboxed(env: Env): { env: Record<string, string>; copyOnce: { from: string; to: string }[] } {
  if (isSet(env['CLAUDE_CONFIG_DIR'])) return { env: {}, copyOnce: [] };
  const dir = claudeConfigDir(env);
  return { env: { CLAUDE_CONFIG_DIR: dir }, copyOnce: [{ from: path.join(homeDir(env), GLOBAL_CONFIG), to: path.join(dir, GLOBAL_CONFIG) }] };
}
