// A WebSocket close reason from a longer message (the web host's, when a page's daemon or remote
// cannot be reached): the protocol allows 123 bytes of UTF-8, so a longer one is cut at a word, never
// inside a character, and ends with "…", so the page shows a sentence that stops rather than a word
// that breaks off. Runs in the `mori ui` process (plain Node).

/** RFC 6455 §5.5: a control frame's payload is at most 125 bytes, two of which are the close code. */
export const MAX_CLOSE_REASON_BYTES = 123;
const ELLIPSIS = '…';

export function closeReason(message: string, max = MAX_CLOSE_REASON_BYTES): string {
  const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
  if (bytes(message) <= max) return message;
  const room = max - bytes(ELLIPSIS);
  // Whole characters (code points) while they fit, then back to the last space.
  let cut = '';
  for (const ch of message) {
    if (bytes(cut + ch) > room) break;
    cut += ch;
  }
  const space = cut.lastIndexOf(' ');
  if (space > 0) cut = cut.slice(0, space);
  return cut.replace(/[\s/,;:(]+$/, '') + ELLIPSIS;
}
