// Which session names are refused (common/session-names.ts): the slug pattern, and names ending in
// an extension macOS opens as an app, package or plug-in instead of as a folder.
import { describe, expect, it } from 'vitest';
import { sessionNameProblem } from '../../../common/session-names.js';

describe('sessionNameProblem', () => {
  it('accepts slugs, dots included, and refuses others with the rule', () => {
    for (const ok of ['api', 'fix-login', 'v1.2', 'a_b', 'app', 'x.apps', 'my.application', 'pkg.notes']) expect(sessionNameProblem(ok), ok).toBeNull();
    for (const bad of ['', 'Upper', '../x', '-rf', 'a'.repeat(65)]) expect(sessionNameProblem(bad), bad).toMatch(/1-64 lowercase letters/);
  });
  it('refuses a name macOS would open as a bundle, saying so', () => {
    for (const ext of ['app', 'bundle', 'framework', 'plugin', 'kext', 'pkg', 'mpkg', 'prefpane', 'appex', 'workflow', 'xpc']) {
      expect(sessionNameProblem(`x.${ext}`), ext).toBe(`it may not end in ".${ext}": macOS would open its state folder as an app or package, not as a folder`);
    }
  });
});
