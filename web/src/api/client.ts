import axios, { isAxiosError, type AxiosRequestConfig } from 'axios';
import i18n from 'i18next';
import { navigateTo } from '../lib/navigation';
import { notify } from '../lib/notify';
import type { Envelope } from './types';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not show failures as toasts; the caller reports them itself. */
    silent?: boolean;
  }
}

/** The one HTTP client: same-origin paths, no timeout, the XSRF cookie echoed back as a header. */
export const client = axios.create({
  baseURL: '',
  timeout: 0,
  withCredentials: true,
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
});

/**
 * The console's language as an Accept-Language value, sent with every call: the server words its messages
 * (toasts, CSV headings) by this header, and the browser's own header names the browser's language, not the
 * one chosen in the console. Accept-Language is a header scripts may set, so no header of our own is needed.
 */
export const consoleLanguageHeaders = (): Record<string, string> => ({
  'Accept-Language': i18n.resolvedLanguage ?? i18n.language ?? 'zh-CN',
});

client.interceptors.request.use((config) => {
  for (const [name, value] of Object.entries(consoleLanguageHeaders())) config.headers.set(name, value);
  return config;
});

/** A failed call; `shown` says whether the common handler already told the user. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly shown: boolean,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function serverMessage(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' && data.message) {
    return data.message;
  }
  return undefined;
}

/** Common handling of failed HTTP calls (spec section 8). */
export function handleHttpError(error: unknown, silent = false): ApiError {
  if (!isAxiosError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    if (!silent) notify.error(message);
    return new ApiError(message, undefined, !silent);
  }
  const status = error.response?.status;
  const message = serverMessage(error.response?.data) ?? error.message;
  if (status === 401) {
    // The sign-in page forgets the stale user once it shows; clearing it here, while the private page is
    // still mounted, would let that page's guard redirect to a plain /login and drop the 'expired' flag.
    void navigateTo('/login?expired=true');
    return new ApiError(message, status, true);
  }
  if (silent) return new ApiError(message, status, false);
  if (status === 429) notify.error(i18n.t('common.error.tooManyRequests'));
  else if (status === 500) notify.error(i18n.t('common.error.internal'));
  else if (status === 405) notify.info(i18n.t('common.error.demoSite'));
  else notify.error(message);
  return new ApiError(message, status, true);
}

declare global {
  interface Window {
    /** Answers index.html asked for before the code loaded, by path (GET /api/status); each is taken once. */
    __modelgateEarly?: Record<string, Promise<unknown>>;
  }
}

/** The answer index.html already asked for, for a GET of that very path without parameters; taken once. */
function takeEarlyAnswer(config: AxiosRequestConfig): Promise<unknown> | undefined {
  if ((config.method ?? 'GET').toUpperCase() !== 'GET' || config.params || !config.url) return undefined;
  const early = typeof window === 'undefined' ? undefined : window.__modelgateEarly;
  const answer = early?.[config.url];
  if (answer) delete early[config.url];
  return answer;
}

/** Sends a request and returns the whole envelope; HTTP failures go through the common handler and throw. */
export async function requestEnvelope<T>(config: AxiosRequestConfig): Promise<Envelope<T>> {
  const early = takeEarlyAnswer(config);
  if (early) {
    try {
      return (await early) as Envelope<T>;
    } catch {
      // Asked again below, where a failure is handled (and reported) as any other.
    }
  }
  try {
    const response = await client.request<Envelope<T>>(config);
    return response.data;
  } catch (error) {
    throw handleHttpError(error, config.silent);
  }
}

/** Sends a request and returns `data`; `success: false` shows the message as an error toast and throws. */
export async function request<T>(config: AxiosRequestConfig): Promise<T> {
  const envelope = await requestEnvelope<T>(config);
  if (!envelope || typeof envelope !== 'object' || envelope.success !== true) {
    const message = envelope?.message || i18n.t('common.error.requestFailed');
    if (!config.silent) notify.error(message);
    throw new ApiError(message, undefined, !config.silent);
  }
  return envelope.data;
}

type Options = Omit<AxiosRequestConfig, 'url' | 'method' | 'data'>;

export const api = {
  get: <T>(url: string, options?: Options) => request<T>({ ...options, url, method: 'GET' }),
  delete: <T>(url: string, options?: Options) => request<T>({ ...options, url, method: 'DELETE' }),
  post: <T>(url: string, data?: unknown, options?: Options) => request<T>({ ...options, url, method: 'POST', data }),
  put: <T>(url: string, data?: unknown, options?: Options) => request<T>({ ...options, url, method: 'PUT', data }),
};

/** True for failures the common handler has not reported yet. */
export const needsReport = (error: unknown): boolean => !(error instanceof ApiError && error.shown);
