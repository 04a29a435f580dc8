// The remotes, $MORI_HOME/remotes.json (DESIGN.md §12, sessions on other hosts): each a name the
// person picked, the destination `ssh` is given (user@host, a ~/.ssh/config alias), extra ssh options,
// and the command run there (`mori bridge` by default), validated with zod on every read; a corrupt
// file is reported by name and never overwritten. Reading only: `mori ls` reads it on every run, so
// the writing (remotes-update.ts) and what it loads stay out of that command. Runs in the CLI process.
import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import '../../common/zod-english.js';
import { fail, ok, type Result } from '../../common/result.js';
import { remotesPath } from './remotes-path.js';

export { REMOTES_FILE, remotesPath } from './remotes-path.js';
/** What runs on the remote unless the person says otherwise: its `mori`, found on the login's PATH. */
export const DEFAULT_REMOTE_COMMAND = 'mori bridge';

/**
 * A remote's name is the `host` of `host:session`: letters, digits, `.`, `_`, `-` (no `:` or `/`, which
 * would make a session reference ambiguous); 64 is longer than any host name one types.
 */
export const RemoteName = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a remote name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit'));

export const Remote = z.object({
  name: RemoteName,
  /** Given to `ssh` as its destination; a leading `-` would be read as an option, so none. */
  destination: z.string().check(z.minLength(1), z.maxLength(1024), z.regex(/^[^-\s]\S*$/, 'a destination is one word not starting with "-"')),
  /** Extra words for `ssh` before the destination (`-p 2222`, `-o UserKnownHostsFile=...`). */
  sshOptions: z._default(z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(64)), []),
  /** Run by the remote's login shell; speaks the control protocol on its stdin and stdout. */
  remoteCommand: z._default(z.string().check(z.minLength(1), z.maxLength(4096)), DEFAULT_REMOTE_COMMAND),
});
export type Remote = z.infer<typeof Remote>;

const RemotesFile = z.object({ schemaVersion: z.literal(1), remotes: z.array(Remote) });

/** Every remote; none when the file does not exist. A file that cannot be read or parsed is named, and left as it is. */
export function readRemotes(home: string): Result<Remote[]> {
  const file = remotesPath(home);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ok([]);
    return fail('unreadable', `${file}: cannot be read (${(err as NodeJS.ErrnoException).code}); left as it is`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail('unreadable', `${file}: not valid JSON (${(err as Error).message}); left as it is: fix or remove it`);
  }
  const parsed = RemotesFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail('unreadable', `${file}: ${issue?.path.join('.') || 'top level'}: ${issue?.message}; left as it is: fix or remove it`);
  }
  const names = new Set<string>();
  for (const r of parsed.data.remotes) {
    if (names.has(r.name)) return fail('unreadable', `${file}: the remote "${r.name}" is listed twice; left as it is: fix or remove it`);
    names.add(r.name);
  }
  return ok(parsed.data.remotes);
}
