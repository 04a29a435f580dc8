// The window's preferences kept in the browser's storage (renderer/ui/stored-prefs.ts), over a storage
// that behaves as Web Storage does: a size comes back within its bounds and rounded, a choice comes
// back as one of its words; anything else stored (another version's, edited by hand) and a storage
// that refuses reads or writes give the default, and storing never throws.
import { describe, expect, it } from 'vitest';
import { choicePref, sizePref, type PrefStorage } from '../../../../renderer/ui/stored-prefs.js';

/** Web Storage over a Map, refusing reads and writes as a browser with storage disabled does. */
class MemoryStorage implements PrefStorage {
  readonly map = new Map<string, string>();
  refuses = false;
  getItem(k: string): string | null {
    if (this.refuses) throw new DOMException('denied', 'SecurityError');
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    if (this.refuses) throw new DOMException('quota', 'QuotaExceededError');
    this.map.set(k, v);
  }
}

const BOUNDS = { fallback: 300, min: 200, max: 600 };

describe('sizePref', () => {
  it('keeps a size within its bounds, rounded, and reads it back', () => {
    const s = new MemoryStorage();
    const pref = sizePref('k', BOUNDS, () => s);
    expect(pref.stored()).toBe(300);
    pref.store(412.6);
    expect(s.map.get('k')).toBe('413');
    expect(pref.stored()).toBe(413);
    pref.store(5000);
    expect(pref.stored()).toBe(600);
    pref.store(-3);
    expect(pref.stored()).toBe(200);
    expect(pref.clamp(199.4)).toBe(200);
  });

  it('reads what is not a positive number as the default, and a stored size out of bounds within them', () => {
    const s = new MemoryStorage();
    const pref = sizePref('k', BOUNDS, () => s);
    for (const junk of ['', 'wide', 'NaN', 'Infinity', '0', '-40']) {
      s.map.set('k', junk);
      expect(pref.stored(), junk).toBe(300);
    }
    s.map.set('k', '9000');
    expect(pref.stored()).toBe(600);
  });

  it('gives the default and does not throw when the storage refuses, or there is none', () => {
    const s = new MemoryStorage();
    s.map.set('k', '400');
    s.refuses = true;
    const pref = sizePref('k', BOUNDS, () => s);
    expect(pref.stored()).toBe(300);
    expect(() => pref.store(500)).not.toThrow();
    const none = sizePref('k', BOUNDS, () => null);
    expect(none.stored()).toBe(300);
    expect(() => none.store(500)).not.toThrow();
  });
});

describe('choicePref', () => {
  it('reads back one of its words, and anything else as the default', () => {
    const s = new MemoryStorage();
    const pref = choicePref<'unified' | 'split'>('layout', ['unified', 'split'], 'unified', () => s);
    expect(pref.stored()).toBe('unified');
    pref.store('split');
    expect(pref.stored()).toBe('split');
    s.map.set('layout', 'Split');
    expect(pref.stored()).toBe('unified');
    s.refuses = true;
    expect(pref.stored()).toBe('unified');
    expect(() => pref.store('split')).not.toThrow();
  });
});
