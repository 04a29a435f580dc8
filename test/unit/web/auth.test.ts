// The launch token's one exchange: it gives a session secret once; a second exchange, a wrong token
// and an exchange after LAUNCH_TOKEN_TTL_MS fail, and the link is then spent.
import { describe, expect, it } from 'vitest';
import { LAUNCH_TOKEN_TTL_MS, newToken, WebAuth } from '../../../main/web/web-auth.js';

describe('WebAuth', () => {
  it('exchanges the launch token once for a secret that differs from it', () => {
    const token = newToken();
    const auth = new WebAuth(token);
    expect(auth.exchange('wrong').ok).toBe(false);
    expect(auth.spent).toBe(false);
    const first = auth.exchange(token);
    expect(first.ok && first.value !== token).toBe(true);
    expect(auth.spent).toBe(true);
    expect(auth.exchange(token)).toMatchObject({ ok: false, message: expect.stringMatching(/already used/) });
    expect(first.ok && auth.secretValid(first.value)).toBe(true);
    expect(auth.secretValid(token)).toBe(false);
  });

  it('refuses the launch token after its lifetime', () => {
    let now = 1_000;
    const token = newToken();
    const auth = new WebAuth(token, () => now);
    now += LAUNCH_TOKEN_TTL_MS + 1;
    expect(auth.spent).toBe(true);
    expect(auth.exchange(token)).toMatchObject({ ok: false, message: expect.stringMatching(/expired/) });
    expect(auth.secretValid('')).toBe(false);
  });
});
