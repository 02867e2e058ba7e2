import { api } from './client';
import type { ReleaseInfo } from './option';

/** Success and latency over one window. */
export interface OutcomeWindow {
  requests: number;
  success_rate: number | null;
  median_latency_ms: number | null;
}

export interface ModelServiceStatus {
  model: string;
  /** True when at least one enabled channel serves the model for the caller's group. */
  available: boolean;
  last_hour: OutcomeWindow;
  last_day: OutcomeWindow;
}

export interface ChannelServiceStatus {
  channel_id: number;
  name: string;
  status: number;
  last_hour: OutcomeWindow;
  last_day: OutcomeWindow;
}

export interface ServiceStatusReport {
  models: ModelServiceStatus[];
  channels?: ChannelServiceStatus[];
}

export const fetchServiceStatus = () => api.get<ServiceStatusReport>('/api/status/models');

/** The latest release of the gateway, fetched by the server from the configured update-check address (admin). */
export const fetchLatestRelease = () => api.get<ReleaseInfo>('/api/status/latest_release');
