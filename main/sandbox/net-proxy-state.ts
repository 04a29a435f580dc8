// What a session's proxy process records of itself in its dir (net-proxy.json), written by the proxy
// (net-proxy-main.ts) and read by whoever starts, checks or stops it (net-proxy-process.ts). The dir
// lies under Mori's home, outside every sandbox; its file is still checked field by field, and a pid
// counts only with the start time it was recorded with. Any Node process.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const NET_PROXY_STATE = 'net-proxy.json';

export interface NetProxyState {
  pid: number;
  /** The process's start time (os/process-start.ts), so a reused pid is not taken for the proxy. */
  startTime: string | null;
  socket: string;
  allowedHosts: string[];
}

/** The recorded state, or null when absent or not of this shape. */
export function readNetProxyState(dir: string): NetProxyState | null {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path.join(dir, NET_PROXY_STATE), 'utf8'));
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const s = v as Record<string, unknown>;
  const hosts = s['allowedHosts'];
  if (!Number.isInteger(s['pid']) || typeof s['socket'] !== 'string' || !Array.isArray(hosts) || !hosts.every((h) => typeof h === 'string')) return null;
  if (s['startTime'] !== null && typeof s['startTime'] !== 'string') return null;
  return { pid: s['pid'] as number, startTime: s['startTime'] as string | null, socket: s['socket'], allowedHosts: hosts as string[] };
}
