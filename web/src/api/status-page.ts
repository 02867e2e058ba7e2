import { api } from './client';

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
