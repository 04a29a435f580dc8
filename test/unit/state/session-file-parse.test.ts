// session.json's parse error as Mori says it: it names the file, and the bytes the parser quotes from
// it (an agent's: a NUL, an ESC) come as escapes, so they never reach the work log or a terminal raw.
import { describe, expect, it } from 'vitest';
import { parseSessionFile } from '../../../main/state/session-file.js';

describe('parseSessionFile', () => {
  it('names the file and shows the control characters the parser quotes as escapes', () => {
    const r = parseSessionFile('/p/.mori/s/session.json', '{"a":\u0000\u001b[31m}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(/^\/p\/\.mori\/s\/session\.json: not valid JSON \(/);
    expect(r.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});
