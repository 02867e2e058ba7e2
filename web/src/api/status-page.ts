import type { outcomeWindow, serviceStatusReport } from '@modelgate/wire';
import type { z } from 'zod';
import { api } from './client';
import type { ReleaseInfo } from './option';

/** Success and latency over one window. */
export type OutcomeWindow = z.infer<typeof outcomeWindow>;
export type ServiceStatusReport = z.infer<typeof serviceStatusReport>;
export type ModelServiceStatus = ServiceStatusReport['models'][number];
export type ChannelServiceStatus = NonNullable<ServiceStatusReport['channels']>[number];

export const fetchServiceStatus = () => api.get<ServiceStatusReport>('/api/status/models');

/** The latest release of the gateway, fetched by the server from the configured update-check address (admin). */
export const fetchLatestRelease = () => api.get<ReleaseInfo>('/api/status/latest_release');
