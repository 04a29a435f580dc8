// git-policy.ts lets the worktree subcommands through only in the forms session-worktree.ts uses:
// `worktree add --no-checkout` (never a checkout that would run a smudge filter), `worktree remove
// --force`, `read-tree -u --reset` and `check-ref-format --branch NAME`.
import { describe, expect, it } from 'vitest';
import { gitArgs, READS_CONTENTS } from '../../../main/git/git-policy.js';

describe('the worktree subcommands in git-policy.ts', () => {
  it('passes the forms Mori uses', () => {
    expect(gitArgs('/r', ['worktree', 'add', '--no-checkout', '-b', 'mori/x', '--', '/w', 'abc'])).toContain('--no-checkout');
    expect(gitArgs('/r', ['worktree', 'remove', '--force', '--', '/w']).slice(-4)).toEqual(['remove', '--force', '--', '/w']);
    expect(gitArgs('/w', ['read-tree', '-u', '--reset', 'HEAD']).slice(-4)).toEqual(['read-tree', '-u', '--reset', 'HEAD']);
    expect(gitArgs('/r', ['check-ref-format', '--branch', 'mori/x']).slice(-3)).toEqual(['check-ref-format', '--branch', 'mori/x']);
    // read-tree writes files: on the private git dir, where no filter driver of the repository is defined.
    expect(READS_CONTENTS.has('read-tree')).toBe(true);
    expect(READS_CONTENTS.has('worktree')).toBe(false);
  });

  it('refuses every other form', () => {
    expect(() => gitArgs('/r', ['worktree', 'add', '-b', 'x', '/w'])).toThrow(/only `add --no-checkout`/);
    expect(() => gitArgs('/r', ['worktree', 'remove', '/w'])).toThrow(/remove --force/);
    expect(() => gitArgs('/r', ['worktree', 'prune'])).toThrow(/worktree/);
    expect(() => gitArgs('/w', ['read-tree', 'HEAD'])).toThrow(/read-tree/);
    expect(() => gitArgs('/w', ['read-tree', '-m', '-u', 'HEAD'])).toThrow(/read-tree/);
    expect(() => gitArgs('/r', ['check-ref-format', 'refs/heads/x'])).toThrow(/check-ref-format/);
    expect(() => gitArgs('/r', ['checkout', 'x'])).toThrow(/not a subcommand/);
  });
});
