// session.json's schema (zod/mini, common/session.ts) says what it expected in English even in a
// process that loads no classic zod, which is what sets the locale otherwise (common/zod-english.ts).
// This file imports nothing else of zod.
import { describe, expect, it } from 'vitest';
import { SessionRecord } from '../../../../common/session.js';

describe("session.json's schema", () => {
  it('names what a field should have been', () => {
    const r = SessionRecord.safeParse({ schemaVersion: 1, id: '123e4567-e89b-42d3-a456-426614174000', name: 'a', projectDir: 5, createdAt: 'x', agent: { profile: 'shell' }, backend: 'direct' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Invalid input: expected string, received number');
  });
});
