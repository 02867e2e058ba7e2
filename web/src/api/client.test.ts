import { AxiosError, AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n } from '../i18n';
import { bindNavigator } from '../lib/navigation';
import { notify } from '../lib/notify';
import { ApiError, client, handleHttpError, request } from './client';

initI18n();

function httpError(status: number, data: unknown = { success: false, message: 'boom' }): AxiosError {
  const config = { headers: new AxiosHeaders() };
  return new AxiosError('Request failed', 'ERR', config, null, {
    status,
    statusText: '',
    headers: {},
    config,
    data,
  });
}

describe('client defaults', () => {
  it('uses the spec defaults', () => {
    expect(client.defaults.baseURL).toBe('');
    expect(client.defaults.timeout).toBe(0);
    expect(client.defaults.withCredentials).toBe(true);
    expect(client.defaults.xsrfCookieName).toBe('XSRF-TOKEN');
    expect(client.defaults.xsrfHeaderName).toBe('X-XSRF-TOKEN');
  });
});

describe('handleHttpError', () => {
  beforeEach(() => {
    vi.restoreAllMocks();
  });

  it('sends 401 to /login?expired=true', () => {
    const navigate = vi.fn();
    bindNavigator(navigate);
    const error = handleHttpError(httpError(401));
    expect(navigate).toHaveBeenCalledWith('/login?expired=true', undefined);
    expect(error.shown).toBe(true);
  });

  it('maps 429, 500 and 405 to the fixed texts', () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const info = vi.spyOn(notify, 'info').mockImplementation(() => undefined);
    handleHttpError(httpError(429));
    expect(error).toHaveBeenLastCalledWith('错误：请求次数过多，请稍后再试！');
    handleHttpError(httpError(500));
    expect(error).toHaveBeenLastCalledWith('错误：服务器内部错误，请联系管理员！');
    handleHttpError(httpError(405));
    expect(info).toHaveBeenLastCalledWith('本站仅作演示之用，无服务端！');
  });

  it('shows the server message for other statuses and the error text for network failures', () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    handleHttpError(httpError(403, { success: false, message: 'state is empty or not same' }));
    expect(error).toHaveBeenLastCalledWith('state is empty or not same');
    handleHttpError(new AxiosError('Network Error'));
    expect(error).toHaveBeenLastCalledWith('Network Error');
  });

  it('stays quiet when asked to', () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    expect(handleHttpError(httpError(500), true).shown).toBe(false);
    expect(error).not.toHaveBeenCalled();
  });
});

describe('request', () => {
  it('returns data on success and toasts success:false messages', async () => {
    const error = vi.spyOn(notify, 'error').mockImplementation(() => undefined);
    const adapter = vi.fn();
    adapter.mockResolvedValueOnce({
      data: { success: true, message: '', data: [1, 2] },
      status: 200,
      headers: {},
      config: {},
    });
    adapter.mockResolvedValueOnce({
      data: { success: false, message: 'nope', data: null },
      status: 200,
      headers: {},
      config: {},
    });
    await expect(request<number[]>({ url: '/api/x', adapter })).resolves.toEqual([1, 2]);
    await expect(request({ url: '/api/x', adapter })).rejects.toBeInstanceOf(ApiError);
    expect(error).toHaveBeenLastCalledWith('nope');
  });
});

describe('the console language', () => {
  it('goes with every call as Accept-Language and follows a language change', async () => {
    const sent: unknown[] = [];
    const adapter = vi.fn(async (config: InternalAxiosRequestConfig) => {
      sent.push(config.headers.get('Accept-Language'));
      return { data: { success: true, message: '', data: null }, status: 200, statusText: '', headers: {}, config };
    });
    await request({ url: '/api/x', adapter });
    await changeLanguage('en');
    await request({ url: '/api/x', adapter });
    await changeLanguage('zh-CN');
    expect(sent).toEqual(['zh-CN', 'en']);
  });
});
