// Links the window opens (DESIGN.md §11, §13): a link in a terminal or in the page goes to the
// person's default browser through the main process — http and https only, named in full; anything
// else (file:, javascript:, a custom scheme that starts a program, a malformed URL) is refused and the
// refusal logged with where it came from. Electron main process; `shell.openExternal` is passed in.
import { fail, ok, type Result } from '../../common/result.js';

/** Longer than any link a person clicks; a longer "URL" is data, not a link. */
const MAX_URL_CHARS = 8_192;
const OPENABLE = new Set(['http:', 'https:']);

/** The URL to open, or why not: only a well-formed absolute http(s) URL without credentials in it. */
export function externalUrl(raw: unknown): Result<string> {
  if (typeof raw !== 'string' || raw.length === 0) return fail('usage', 'not a URL');
  if (raw.length > MAX_URL_CHARS) return fail('usage', `a URL of ${raw.length} characters (at most ${MAX_URL_CHARS})`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('usage', 'not a well-formed URL');
  }
  if (!OPENABLE.has(url.protocol)) return fail('forbidden', `only http and https links open, not ${url.protocol}`);
  // user:password@host hides the real host from a reader of the link.
  if (url.username !== '' || url.password !== '') return fail('forbidden', 'a link with a user name or password in it');
  return ok(url.href);
}

export class ExternalLinks {
  constructor(
    private readonly o: {
      openExternal: (url: string) => Promise<void>;
      log: (line: string) => void;
    },
  ) {}

  /** Opens `raw` in the default browser when it may be; `from` names where it came from, for the log. */
  open(raw: unknown, from: string): Result<{ opened: string }> {
    const u = externalUrl(raw);
    if (!u.ok) {
      const shown = typeof raw === 'string' ? JSON.stringify(raw.slice(0, 200)) : typeof raw;
      this.o.log(`refused to open a link from ${from}: ${shown}: ${u.message}`);
      return u;
    }
    const failed = (err: unknown): void => this.o.log(`opening ${u.value} failed: ${String(err)}`);
    try {
      this.o.openExternal(u.value).then(undefined, failed);
    } catch (err) {
      failed(err);
    }
    return ok({ opened: u.value });
  }
}
