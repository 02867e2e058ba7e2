/** The management API's envelope. */
export interface Envelope<T = any> {
  success: boolean;
  message: string;
  data: T;
  [extra: string]: unknown;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
  text: string;
}

/**
 * A small HTTP client that behaves like the console's axios: it keeps cookies and echoes the XSRF-TOKEN
 * cookie in X-XSRF-TOKEN. With an access token it authenticates the way scripts do.
 */
export class ApiClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly accessToken?: string,
    readonly language = 'zh-CN',
  ) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const requestHeaders: Record<string, string> = { 'accept-language': this.language, ...headers };
    if (this.cookies.size > 0)
      requestHeaders.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const xsrf = this.cookies.get('XSRF-TOKEN');
    if (xsrf && !('x-xsrf-token' in requestHeaders)) requestHeaders['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (this.accessToken) requestHeaders.authorization = this.accessToken;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      requestHeaders['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: requestHeaders,
      body: payload,
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const expired = attributes.some(
        (attribute) => /expires=Thu, 01 Jan 1970/i.test(attribute) || /max-age=0/i.test(attribute.trim()),
      );
      if (expired || value === '') this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    const text = await response.text();
    let parsed: Envelope<T>;
    try {
      parsed = JSON.parse(text) as Envelope<T>;
    } catch {
      parsed = { success: false, message: text, data: undefined as T };
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body ?? {}, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }

  /** Signs in with a password; throws with the server's message when it fails. */
  async login(username: string, password: string): Promise<Envelope> {
    const response = await this.post('/api/user/login', { username, password });
    if (!response.body.success) throw new Error(`login as ${username} failed: ${response.body.message}`);
    return response.body;
  }
}
