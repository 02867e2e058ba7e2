import { api } from './client';
import type { ServerStatus } from './types';

/** GET /api/status; silent because the caller shows 'unable to connect' itself. */
export const fetchStatus = () => api.get<ServerStatus>('/api/status', { silent: true });

export const fetchNotice = () => api.get<string>('/api/notice', { silent: true });

export const fetchHomePageContent = () => api.get<string>('/api/home_page_content', { silent: true });

/** The admin's About text (Markdown, HTML or an https:// address), shown on /about. */
export const fetchAbout = () => api.get<string>('/api/about', { silent: true });
