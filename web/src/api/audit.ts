import type { AuditEntry, auditChainCheck } from '@modelgate/wire';
import type { z } from 'zod';
import { api } from './client';

export type { AuditEntry };
export type AuditChainCheck = z.infer<typeof auditChainCheck>;

/** The audit trail's filters as the console holds them; empty values are left out of the query. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target_type?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}

const params = (filters: AuditFilters) =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== '' && value !== 0));

export const fetchAuditPage = (filters: AuditFilters, page: number, pageSize: number) =>
  api.get<{ items: AuditEntry[]; total: number }>('/api/audit/', {
    params: { ...params(filters), p: page, page_size: pageSize },
  });

export const verifyAuditChain = () => api.get<AuditChainCheck>('/api/audit/verify');

export const auditExportUrl = (filters: AuditFilters): string =>
  `/api/audit/export.csv?${new URLSearchParams(params(filters) as Record<string, string>).toString()}`;
