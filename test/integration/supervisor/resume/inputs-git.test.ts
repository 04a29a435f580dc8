// The resume prompt's files in progress (DESIGN.md §5): the supervisor reads git status without
// blocking its event loop, and lists the same files as `mori prompt`'s synchronous read. Real git.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionRecord } from '../../../../common/session.js';
import { gatherResumeInputs, gatherResumeInputsAsync } from '../../../../main/supervisor/resume/resume-inputs.js';
import { git, projectWithSession } from '../../../support/snapshot-repo.js';

describe('resume inputs', () => {
  it('list the same files in progress from the asynchronous git status as from the synchronous one', async () => {
    const p = await projectWithSession('inputs');
    writeFileSync(path.join(p.project, 'a.txt'), 'changed\n');
    rmSync(path.join(p.project, 'b.txt'));
    mkdirSync(path.join(p.project, 'src'));
    writeFileSync(path.join(p.project, 'src', 'new.ts'), 'x\n');
    writeFileSync(path.join(p.project, 'staged.txt'), 'y\n');
    git(p.project, 'add', 'staged.txt');
    writeFileSync(path.join(p.project, 'skip.log'), 'ignored\n');
    const session = SessionRecord.parse(JSON.parse(readFileSync(path.join(p.stateDir, 'session.json'), 'utf8')));
    const sync = gatherResumeInputs(p.stateDir, session);
    const async = await gatherResumeInputsAsync(p.stateDir, session);
    expect(sync.ok && async.ok).toBe(true);
    if (!sync.ok || !async.ok) return;
    expect([...async.value.gitChanged].sort()).toEqual(['a.txt', 'b.txt', 'src/', 'staged.txt']);
    expect([...async.value.gitChanged].sort()).toEqual([...sync.value.gitChanged].sort());
  });
});
