// opencode's hook layer handed over by a real `mori up` (DESIGN.md §4 "Hooks") when the person's own
// environment already speaks to opencode's config: their OPENCODE_CONFIG_CONTENT keeps all it says
// and gains Mori's plugin; content Mori cannot add to, or OPENCODE_PURE, is passed on untouched, no
// plugin is written, and the work log says hooks are off. The agent is a small program standing in
// for opencode that keeps what it was given (the real opencode loading the layer, and its events
// reaching the daemon, is test/integration/agents/hooks/real-opencode.test.ts).
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { until, UpHarness } from '../../../support/mori-up.js';
import { killPanes } from '../../../support/hook-calls.js';

const NAME = 'oc';

let h: UpHarness | null = null;
afterEach(() => {
  if (h) killPanes(h);
  h?.cleanup();
  h = null;
});

/** Starts session `oc` (profile opencode) with `env` added to the daemon's; what the agent was given as OPENCODE_CONFIG_CONTENT (`-` when unset). */
async function launched(prefix: string, env: Record<string, string>): Promise<{ harness: UpHarness; seen: string }> {
  const harness = new UpHarness(prefix, env);
  h = harness;
  const seenFile = path.join(harness.tmp, 'seen');
  const bin = path.join(harness.tmp, 'opencode');
  // Keeps what it was given, then stays up as an agent does.
  writeFileSync(bin, `#!/bin/sh\nprintf '%s' "\${OPENCODE_CONFIG_CONTENT--}" > '${seenFile}.tmp' && mv '${seenFile}.tmp' '${seenFile}'\nexec sleep 600\n`);
  chmodSync(bin, 0o755);
  harness.env['MORI_AGENT_BIN_OPENCODE'] = bin;
  const init = harness.mori('init', harness.project, '--name', NAME, '--agent', 'opencode', '--backend', 'tmux', '--task', 'write the thing');
  expect(init.code, init.stderr).toBe(0);
  const u = harness.up();
  await until('the agent started', () => existsSync(seenFile), () => u.stderr());
  return { harness, seen: readFileSync(seenFile, 'utf8') };
}

/** The plugin files in Mori's hooks dir (none when the dir was never made). */
const plugins = (harness: UpHarness): string[] => {
  const dir = path.join(harness.home, 'hooks');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.mjs')) : [];
};

describe("opencode's layer beside the person's own opencode settings", () => {
  it('adds its plugin to their OPENCODE_CONFIG_CONTENT, keeping the rest of it', async () => {
    const theirs = { plugin: ['opencode-wakatime'], permission: { bash: 'ask' } };
    const { harness, seen } = await launched('hk-oc-theirs', { OPENCODE_CONFIG_CONTENT: JSON.stringify(theirs) });
    const [plugin] = plugins(harness);
    expect(plugin).toMatch(/^[0-9a-f]{32}\.mjs$/);
    const spec = pathToFileURL(path.join(harness.home, 'hooks', plugin!)).href;
    expect(JSON.parse(seen)).toEqual({ ...theirs, plugin: ['opencode-wakatime', spec] });
    expect(harness.workLog(NAME)).not.toContain('HOOKS OFF');
  });

  for (const [what, env] of [
    ['content that is not JSON', { OPENCODE_CONFIG_CONTENT: '{ // theirs, JSONC\n "model": "x/y" }' }],
    ['OPENCODE_PURE', { OPENCODE_PURE: '1' }],
  ] as const) {
    it(`passes ${what} on untouched and says hooks are off`, async () => {
      const { harness, seen } = await launched('hk-oc-off', env);
      expect(seen).toBe(env['OPENCODE_CONFIG_CONTENT' as keyof typeof env] ?? '-');
      expect(plugins(harness)).toEqual([]);
      await until('HOOKS OFF in the work log', () => /HOOKS OFF - [^\n]*(OPENCODE_CONFIG_CONTENT is not a JSON object|OPENCODE_PURE is set)[^\n]*; activity is read from the screen alone/.test(harness.workLog(NAME)), () => harness.workLog(NAME));
    });
  }
});
