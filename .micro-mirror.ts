import { HeadlessMirror } from './main/terminals/headless-mirror.js';
const N = 50;
const sb = Number(process.argv[2]);
const line = (i: number) => `${String(i).padStart(5, '0')} build step: compiled src/module-${i % 97}.ts in ${(i * 37) % 1000} ms, 0 errors, 0 warnings\r\n`;
async function settle() { for (let i = 0; i < 4; i++) { (globalThis as any).gc(); await new Promise(r => setTimeout(r, 100)); } return process.memoryUsage(); }
const warm = new HeadlessMirror(80, 24, sb); warm.push('x'); await warm.screenText(); warm.dispose();
const b = await settle();
const held = [];
for (let n = 0; n < N; n++) {
  const m = new HeadlessMirror(80, 24, sb);
  let chunk = '';
  for (let k = 0; k < 10000; k++) { chunk += line(k); if (chunk.length > 16384) { m.push(chunk); chunk = ''; await m.screenText(); } }
  m.push(chunk); await m.screenText(); held.push(m);
}
const a = await settle();
const times: number[] = []; let snap = ""; for (let i = 0; i < 10; i++) { const t = performance.now(); snap = await held[i]!.snapshot(); times.push(+(performance.now() - t).toFixed(1)); } const t0 = 0, t1 = Math.max(...times.slice(1)); console.log(times.join(" "));
console.log(JSON.stringify({ liveScrollback: sb, rssPerMB: +((a.rss - b.rss) / N / 1048576).toFixed(3), heapPerMB: +((a.heapUsed - b.heapUsed) / N / 1048576).toFixed(3), extPerMB: +(((a.external + a.arrayBuffers) - (b.external + b.arrayBuffers)) / N / 1048576).toFixed(3), snapshotMs: +(t1 - t0).toFixed(1), snapshotChars: snap.length }));
