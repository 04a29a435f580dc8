// The agent profiles' names and the session-name pattern, apart from session.ts's zod schemas so the
// window's entry can use them without the schema library. Pure TypeScript.

export const PROFILE_NAMES = ['claude', 'codex', 'gemini', 'opencode', 'qwen', 'copilot', 'pi', 'aider', 'shell', 'custom'] as const;

/** A session name: a slug, unique per project; it names the state dir `.mori/<name>/`. */
export const SESSION_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * Folder extensions macOS opens as an app, a package or a plug-in rather than as a folder: a state
 * dir `.mori/x.app/` holding `Contents/MacOS/x` would run when opened in Finder.
 */
export const BUNDLE_EXTENSIONS: readonly string[] = [
  'app', 'appex', 'bundle', 'component', 'dext', 'framework', 'kext', 'mdimporter', 'mpkg', 'pkg',
  'plugin', 'prefpane', 'qlgenerator', 'saver', 'service', 'systemextension', 'wdgt', 'workflow', 'xpc',
];

/** Why a new session name is refused: the pattern, or an extension macOS opens; null when it is fine. */
export function sessionNameProblem(name: string): string | null {
  if (!SESSION_NAME_PATTERN.test(name)) return 'use 1-64 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit';
  const ext = /\.([a-z0-9]+)$/.exec(name)?.[1];
  if (ext !== undefined && BUNDLE_EXTENSIONS.includes(ext)) return `it may not end in ".${ext}": macOS would open its state folder as an app or package, not as a folder`;
  return null;
}
