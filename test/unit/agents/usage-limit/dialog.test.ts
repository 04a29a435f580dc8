// The key that closes an agent's usage-limit dialog with Stop (main/agents/usage-limit/limit-dialog.ts),
// over the dialogs Gemini CLI 0.61.0 printed against its stand-in (test/support/fixtures/agent-screens/): a
// plan's quota ("Keep trying / Stop"), an API key's quota with and without a reset ("Switch to … /
// Stop"); none when the dialog is gone, belongs to an earlier turn, is not boxed, or the profile has none.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILES } from '../../../../main/agents/profiles.js';
import { limitDialogStopKey } from '../../../../main/agents/usage-limit/limit-dialog.js';

const screen = (name: string): string => readFileSync(new URL(`../../../support/fixtures/agent-screens/${name}.txt`, import.meta.url), 'utf8');

describe('limitDialogStopKey', () => {
  it.each(['gemini-usage-limit-plan', 'gemini-usage-limit', 'gemini-usage-limit-daily'])('%s: Stop is key 2', (fixture) => {
    expect(limitDialogStopKey(PROFILES.gemini, screen(fixture))).toBe('2');
  });

  it('reads the key the dialog numbers Stop with (a third choice before it)', () => {
    const lines = screen('gemini-usage-limit-plan').split('\n');
    const at = lines.findIndex((l) => l.includes('2. Stop'));
    const row = (text: string): string => `│ ${text.padEnd(116)} │`;
    const three = [...lines.slice(0, at), row('  2. Upgrade for higher limits'), row('  3. Stop'), ...lines.slice(at + 1)].join('\n');
    expect(limitDialogStopKey(PROFILES.gemini, three)).toBe('3');
  });

  it('none once the dialog is answered and the agent is at its prompt, or on an idle screen', () => {
    expect(limitDialogStopKey(PROFILES.gemini, screen('gemini-resumed-after-limit'))).toBeNull();
    expect(limitDialogStopKey(PROFILES.gemini, screen('gemini-idle-after-answer'))).toBeNull();
  });

  it('none for a dialog of an earlier turn, a Stop line outside a box, or a profile without a dialog', () => {
    const plan = screen('gemini-usage-limit-plan');
    expect(limitDialogStopKey(PROFILES.gemini, `${plan}\n> what now?\n\n✦ nothing\n`)).toBeNull();
    // The model's own words (indented answer lines) are no dialog.
    expect(limitDialogStopKey(PROFILES.gemini, '> hi\n\n✦ Here:\n  Usage limit reached for gemini-x.\n  2. Stop\n')).toBeNull();
    expect(limitDialogStopKey(PROFILES.claude, plan)).toBeNull();
  });
});
