// The network reachability decision: from the previous state and one probe round's result, the new
// state and the event to emit, debounced so a flaky link does not flap. Also when to probe next.
// Pure; main/power/reachability.ts is its shell. Main process (and `mori up`).
import type { NetworkOfflineEvent, NetworkOnlineEvent, NetworkStatus } from '../../common/power.js';

export interface NetworkState {
  /** What the probes say now; `unknown` at start and right after a wake (what we knew is stale). */
  status: NetworkStatus;
  /** The last state announced (the first `online` is not announced; `offline` always is). */
  reported: 'online' | 'offline' | null;
  /** Consecutive failed / successful probe rounds. */
  failures: number;
  successes: number;
  /** First failed round of the current failure streak. */
  failingSince: number | null;
  /** `since` of the announced offline, until the matching online. */
  offlineSince: number | null;
}

export interface NetworkConfig {
  offlineAfterFailures: number;
  onlineAfterSuccesses: number;
  onlineIntervalMs: number;
  confirmIntervalMs: number;
  offlineIntervalMs: number;
  probeTimeoutMs: number;
}

/** One lost handshake (a Wi-Fi roam, a dropped SYN) is not an outage; three rounds in a row (~4 s) are. */
export const OFFLINE_AFTER_FAILURES = 3;
/**
 * A link that answers once and drops again (captive portal, a weak access point) must not resume
 * every agent: two successful rounds in a row, a confirm interval apart, bring it back.
 */
export const ONLINE_AFTER_SUCCESSES = 2;
/**
 * While online, one probe every 30 s: one TCP handshake is cheap, the agents notice an outage in
 * their own requests first, and Electron's online/offline hints trigger a probe at once anyway.
 */
export const ONLINE_PROBE_INTERVAL_MS = 30_000;
/** After a result that may change the state (a first failure, a first success, a wake): confirm fast. */
export const CONFIRM_PROBE_INTERVAL_MS = 2_000;
/** While offline, every 5 s: the network's return is seen within seconds without hammering a dead link. */
export const OFFLINE_PROBE_INTERVAL_MS = 5_000;
/** DNS + handshake within 4 s: far above a healthy round trip anywhere, below the offline interval. */
export const PROBE_TIMEOUT_MS = 4_000;

export const DEFAULT_NETWORK_CONFIG: NetworkConfig = {
  offlineAfterFailures: OFFLINE_AFTER_FAILURES,
  onlineAfterSuccesses: ONLINE_AFTER_SUCCESSES,
  onlineIntervalMs: ONLINE_PROBE_INTERVAL_MS,
  confirmIntervalMs: CONFIRM_PROBE_INTERVAL_MS,
  offlineIntervalMs: OFFLINE_PROBE_INTERVAL_MS,
  probeTimeoutMs: PROBE_TIMEOUT_MS,
};

export const initialNetworkState = (): NetworkState => ({
  status: 'unknown',
  reported: null,
  failures: 0,
  successes: 0,
  failingSince: null,
  offlineSince: null,
});

export interface ProbeResult {
  ok: boolean;
  at: number;
  /** What failed, for the offline event (see describeFailures). */
  detail: string;
}

export type NetworkEvent = { type: 'offline'; event: NetworkOfflineEvent } | { type: 'online'; event: NetworkOnlineEvent };

/** Folds one probe round into the state. */
export function decideProbe(
  state: NetworkState,
  result: ProbeResult,
  config: NetworkConfig = DEFAULT_NETWORK_CONFIG,
): { state: NetworkState; event: NetworkEvent | null } {
  if (result.ok) {
    const next: NetworkState = { ...state, successes: state.successes + 1, failures: 0, failingSince: null };
    // From unknown one success is enough (at start, and after a wake where waiting costs resume time);
    // from a reported offline, the link must hold.
    const cameBack = state.status === 'unknown' || (state.status === 'offline' && next.successes >= config.onlineAfterSuccesses);
    if (state.status === 'online' || !cameBack) return { state: next, event: null };
    const online: NetworkState = { ...next, status: 'online', reported: 'online', offlineSince: null };
    if (state.reported !== 'offline') return { state: online, event: null };
    const since = state.offlineSince ?? result.at;
    return { state: online, event: { type: 'online', event: { at: result.at, offlineMs: Math.max(0, result.at - since) } } };
  }
  const failingSince = state.failingSince ?? result.at;
  const next: NetworkState = { ...state, failures: state.failures + 1, successes: 0, failingSince };
  if (state.status === 'offline' || next.failures < config.offlineAfterFailures) return { state: next, event: null };
  // Already announced offline before a wake and still offline: nothing new to say.
  if (state.reported === 'offline') return { state: { ...next, status: 'offline' }, event: null };
  return {
    state: { ...next, status: 'offline', reported: 'offline', offlineSince: failingSince },
    event: { type: 'offline', event: { at: result.at, since: failingSince, detail: result.detail } },
  };
}

/** How long until the next probe round. */
export function nextProbeDelayMs(state: NetworkState, config: NetworkConfig = DEFAULT_NETWORK_CONFIG): number {
  switch (state.status) {
    case 'online':
      return state.failures > 0 ? config.confirmIntervalMs : config.onlineIntervalMs;
    case 'offline':
      return state.successes > 0 ? config.confirmIntervalMs : config.offlineIntervalMs;
    case 'unknown':
      return config.confirmIntervalMs;
  }
}

/**
 * After a wake, what we knew is stale: the status goes back to unknown (probed at once), while the
 * announced state is kept so the matching `online` still follows an `offline` announced before sleep.
 */
export function afterWake(state: NetworkState): NetworkState {
  return { ...state, status: 'unknown', failures: 0, successes: 0, failingSince: null };
}
