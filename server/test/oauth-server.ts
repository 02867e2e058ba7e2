import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** One request the fake provider received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

interface ProviderUser {
  [key: string]: unknown;
}

/**
 * A local HTTP server that speaks the real provider protocols on 127.0.0.1:
 * GitHub (POST /login/oauth/access_token, GET /user), Lark (POST /open-apis/authen/v2/oauth/token,
 * GET /suite/passport/oauth/userinfo), OIDC (POST /oidc/token, GET /oidc/userinfo) and the WeChat
 * login server (GET /api/wechat/user?code=), and Cloudflare Turnstile (POST /turnstile/v0/siteverify). Register a user per code, then send that code through the gateway.
 */
export interface TestOAuthServer {
  url: string;
  requests: RecordedRequest[];
  /** GitHub: code → /user answer ({login, name, email}). */
  github: Map<string, ProviderUser>;
  /** Lark: code → userinfo answer ({open_id, name}). */
  lark: Map<string, ProviderUser>;
  /** OIDC: code → userinfo answer ({sub, name, email, preferred_username}). */
  oidc: Map<string, ProviderUser>;
  /** WeChat: code → WeChat id. */
  wechat: Map<string, string>;
  /** The Authorization value the WeChat endpoint requires. */
  wechatToken: string;
  /** Turnstile: the secret and the one response token siteverify accepts. */
  turnstileSecret: string;
  turnstileGoodToken: string;
  /** Client credentials the token endpoints accept. */
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return Object.fromEntries(new URLSearchParams(raw));
  }
}

export async function startOAuthServer(): Promise<TestOAuthServer> {
  const state: Omit<TestOAuthServer, 'url' | 'close'> = {
    requests: [],
    github: new Map(),
    lark: new Map(),
    oidc: new Map(),
    wechat: new Map(),
    wechatToken: 'wechat-server-token',
    turnstileSecret: 'turnstile-secret',
    turnstileGoodToken: 'turnstile-pass',
    clientId: 'test-client-id',
    clientSecret: 'test-client-secret',
  };
  // access token handed out → the user it stands for
  const issued = new Map<string, ProviderUser>();
  let counter = 0;

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const exchange = (users: Map<string, ProviderUser>, body: Record<string, unknown>) => {
    const user = users.get(String(body.code ?? ''));
    if (!user || body.client_id !== state.clientId || body.client_secret !== state.clientSecret) return undefined;
    const token = `access-${++counter}`;
    issued.set(token, user);
    return token;
  };

  const bearerUser = (request: IncomingMessage) => {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') ? issued.get(header.slice(7)) : undefined;
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const body = await readBody(request);
      state.requests.push({
        method: request.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body,
      });
      const route = `${request.method} ${url.pathname}`;
      switch (route) {
        case 'POST /login/oauth/access_token': {
          const token = exchange(state.github, body);
          return send(
            response,
            200,
            token ? { access_token: token, token_type: 'bearer', scope: '' } : { error: 'bad_verification_code' },
          );
        }
        case 'GET /user': {
          const user = bearerUser(request);
          return user ? send(response, 200, user) : send(response, 401, { message: 'Bad credentials' });
        }
        case 'POST /open-apis/authen/v2/oauth/token': {
          const token = exchange(state.lark, body);
          return send(
            response,
            200,
            token
              ? { code: 0, access_token: token, expires_in: 7200, token_type: 'Bearer' }
              : { code: 20003, error: 'invalid_grant' },
          );
        }
        case 'GET /suite/passport/oauth/userinfo':
        case 'GET /oidc/userinfo': {
          const user = bearerUser(request);
          return user ? send(response, 200, user) : send(response, 401, { error: 'invalid_token' });
        }
        case 'POST /oidc/token': {
          const token = exchange(state.oidc, body);
          return send(
            response,
            token ? 200 : 400,
            token ? { access_token: token, token_type: 'Bearer' } : { error: 'invalid_grant' },
          );
        }
        case 'POST /turnstile/v0/siteverify': {
          // Cloudflare Turnstile's siteverify: form fields secret, response, remoteip.
          const passed = body.secret === state.turnstileSecret && body.response === state.turnstileGoodToken;
          return send(
            response,
            200,
            passed ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] },
          );
        }
        case 'GET /api/wechat/user': {
          if (request.headers.authorization !== state.wechatToken)
            return send(response, 200, { success: false, message: '无权进行此操作' });
          const id = state.wechat.get(url.searchParams.get('code') ?? '');
          return send(
            response,
            200,
            id ? { success: true, message: '', data: id } : { success: true, message: '', data: '' },
          );
        }
        default:
          return send(response, 404, { message: 'Not Found' });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    ...state,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
