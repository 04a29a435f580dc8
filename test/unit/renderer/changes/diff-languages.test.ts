// Which language the Changes tab colours a file in, by its name (renderer/changes/diff-languages.ts),
// and that each one loads: its package is there and gives CodeMirror a language.
import { describe, expect, it } from 'vitest';
import { languageFor, languageName } from '../../../../renderer/changes/diff-languages.js';

describe("the Changes tab's languages", () => {
  it('names the language of a file by its extension, any case, and none for a file without one', () => {
    const names = ['src/a.ts', 'b.TSX', 'c.mjs', 'd.jsx', 'e.css', 'f.html', 'README.md', 'Makefile', '.gitignore', 'x.unknown', 'dir.ts/file'];
    expect(names.map(languageName)).toEqual(['typescript', 'typescript', 'javascript', 'javascript', 'css', 'html', 'markdown', null, null, null, null]);
  });

  it('loads each language it names', async () => {
    for (const path of ['a.ts', 'a.js', 'a.css', 'a.html', 'a.md']) expect((await languageFor(path))?.language.name, path).toMatch(/\w/);
    expect(await languageFor('Makefile')).toBeNull();
  });
});
