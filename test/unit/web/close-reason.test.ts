// A WebSocket close reason from a longer message: within 123 bytes of UTF-8, cut at a word and never
// inside a character, ending with "…"; a short one unchanged.
import { describe, expect, it } from 'vitest';
import { closeReason, MAX_CLOSE_REASON_BYTES } from '../../../main/web/close-reason.js';

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('closeReason', () => {
  it('keeps a short reason as it is', () => {
    expect(closeReason('gone (me@box) cannot be reached through ssh: Connection refused')).toBe('gone (me@box) cannot be reached through ssh: Connection refused');
  });

  it('cuts a long one at a word, within the bytes a close frame holds, ending with an ellipsis', () => {
    const long = 'mute (root@127.0.0.1): the ssh login did not finish within 2 s (ssh: Connection timed out during banner exchange / Connection to 127.0.0.1 port 40000 timed out); check that root@127.0.0.1 answers ssh on that port';
    const r = closeReason(long);
    expect(bytes(r)).toBeLessThanOrEqual(MAX_CLOSE_REASON_BYTES);
    expect(r).toBe('mute (root@127.0.0.1): the ssh login did not finish within 2 s (ssh: Connection timed out during banner exchange…');
  });

  it('never cuts inside a character', () => {
    const r = closeReason('é'.repeat(100), 11);
    expect(r).toBe('éééé…');
    expect(bytes(r)).toBeLessThanOrEqual(11);
  });
});
