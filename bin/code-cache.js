// Loads the bundled CLI (CommonJS, out/cli/main/lean/) with V8's compiled code kept between runs.
// Node 20 has no compile cache of its own, and parsing and compiling the bundle is most of what a
// short command like `mori ls` costs beyond Node's start (DESIGN.md §10). Each bundle file is compiled
// with the code V8 produced for it on an earlier run, when that code is of the file as it is now
// (its inode, size and modification time) and V8 accepts it (its own version and flags); else
// afresh. After a run that compiled anything afresh, the code of every bundle file it loaded (the
// functions that ran included) is written back.
//
// The cache lives in the person's cache folder (never in a project, which an agent can write):
// $XDG_CACHE_HOME/mori/cli-code/, ~/.cache/… or ~/Library/Caches/… on macOS, one folder per bundle
// location, Node version and architecture. A cache that cannot be read or written costs only speed.
//
// CommonJS (bin/package.json), as is bin/mori.js: a command then never starts Node's ES module loader.
'use strict';
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

/** FNV-1a over the text's UTF-16 units, as 8 hex digits (node:crypto would cost a command more to load than it hashes). */
function fnv1a(text, seed) {
  let h = seed;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** The folder of cached code for this bundle folder, Node and architecture. */
function codeCacheDir(bundleDir, env = process.env) {
  const base = env.XDG_CACHE_HOME || (process.platform === 'darwin' ? path.join(os.homedir(), 'Library', 'Caches') : path.join(os.homedir(), '.cache'));
  // Two 32-bit hashes with different seeds (FNV's offset basis and another): 64 bits, so two installs
  // of Mori on one machine never share a folder.
  const text = `${bundleDir}\0${process.version}\0${process.arch}`;
  const key = fnv1a(text, 2166136261) + fnv1a(text, 374761393);
  return path.join(base, 'mori', 'cli-code', key);
}

/**
 * Which version of a bundle file the cached code is of: its inode, size and modification time. V8
 * checks cached code only against the source's length (and its own version and flags), so a rebuilt
 * file of the same length would run the old code; a rebuild writes new files, which this tells apart.
 */
function fileStamp(file) {
  const st = statSync(file);
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** The V8 code in a cache file (`stamp`, newline, code) when it is of the file as it is now; else undefined. */
function codeFor(entry, stamp) {
  const nl = entry.indexOf(10);
  return nl > 0 && entry.toString('latin1', 0, nl) === stamp ? entry.subarray(nl + 1) : undefined;
}

/** Writes `data` to `file` whole or not at all (a concurrent run reads the old code or the new). */
function writeWhole(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

/**
 * Requires `entry` (a CommonJS file in `bundleDir`); every file of `bundleDir` it loads is compiled
 * with its cached code. Returns the folder the code is cached in.
 */
function requireWithCodeCache(bundleDir, entry, cacheDir = codeCacheDir(bundleDir)) {
  const prefix = bundleDir.endsWith(path.sep) ? bundleDir : bundleDir + path.sep;
  const compile = Module.prototype._compile;
  /** Files compiled without usable cached code: their code is written when the run ends. */
  const fresh = [];
  Module.prototype._compile = function compileCached(content, filename) {
    if (!filename.startsWith(prefix)) return compile.call(this, content, filename);
    const cacheFile = path.join(cacheDir, path.basename(filename));
    const stamp = fileStamp(filename);
    let cachedData;
    try {
      cachedData = codeFor(readFileSync(cacheFile), stamp);
    } catch {
      cachedData = undefined;
    }
    // The same wrapper Node gives a CommonJS file, so the file sees what it would under plain require.
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${content}\n})`, {
      filename,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData === undefined || script.cachedDataRejected) fresh.push({ script, cacheFile, stamp });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, Module.createRequire(filename), this, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    if (fresh.length === 0) return;
    try {
      mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
      for (const { script, cacheFile, stamp } of fresh) writeWhole(cacheFile, Buffer.concat([Buffer.from(`${stamp}\n`), script.createCachedData()]));
      // Code of bundle files a rebuild replaced (their names carry a content hash) is dropped.
      const current = new Set(readdirSync(bundleDir));
      for (const name of readdirSync(cacheDir)) if (!current.has(name) && !name.endsWith('.tmp')) rmSync(path.join(cacheDir, name), { force: true });
    } catch {
      // A read-only or full cache folder: the next run compiles again, nothing else changes.
    }
  });
  require(entry);
  return cacheDir;
}

module.exports = { codeCacheDir, requireWithCodeCache };
