// Start at login on Linux (main/electron/autostart.ts): an XDG autostart entry under
// $XDG_CONFIG_HOME/autostart, pointing at the AppImage when the app runs as one (its inner binary
// lives in a mount that changes every run), removed when turned off.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linuxAutoStart } from '../../../main/electron/autostart.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('linuxAutoStart', () => {
  it('writes an XDG autostart entry for the AppImage, started hidden, and removes it', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mori-autostart-'));
    const a = linuxAutoStart({ XDG_CONFIG_HOME: dir, APPIMAGE: '/home/me/Apps/Mori "1".AppImage' }, '/tmp/.mount_Mori123/mori');
    expect(a.enabled()).toBe(false);
    a.set(true);
    expect(a.enabled()).toBe(true);
    const entry = readFileSync(path.join(dir, 'autostart', 'mori.desktop'), 'utf8');
    expect(entry).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Mori\n/);
    expect(entry).toContain('Exec="/home/me/Apps/Mori \\"1\\".AppImage" --hidden');
    a.set(false);
    expect(a.enabled()).toBe(false);
  });

  it('points at the binary itself outside an AppImage', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mori-autostart-'));
    const a = linuxAutoStart({ XDG_CONFIG_HOME: dir }, '/opt/Mori/mori');
    a.set(true);
    expect(readFileSync(path.join(dir, 'autostart', 'mori.desktop'), 'utf8')).toContain('Exec="/opt/Mori/mori" --hidden');
  });
});
