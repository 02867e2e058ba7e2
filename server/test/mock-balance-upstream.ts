import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What one key's account holds at each vendor the gateway can ask for a balance. */
export interface MockBalanceAccount {
  /** OpenAI / Custom legacy dashboard: limit in USD, usage in cents. */
  openai?: { hardLimitUsd: number; hasPaymentMethod: boolean; totalUsageCents: number };
  /** CloseAI and AIGC2D answer `total_available`; API2GPT answers `total_remaining`. */
  creditGrants?: { field: 'total_available' | 'total_remaining'; amount: number };
  openAISB?: { credit: string } | { refusal: string };
  aiProxy?: { totalPoints: number } | { errorCode: number; message: string };
  openRouter?: { totalCredits: number; totalUsage: number };
  deepSeek?: { currency: string; totalBalance: string }[];
  siliconFlow?: { code: number; message: string; totalBalance: string };
}

export interface RecordedBalanceRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

/**
 * A local stand-in for the vendors' balance endpoints on 127.0.0.1, speaking each one's wire shape
 * (providers.md §9). Accounts are looked up by the key the vendor expects (Bearer, `Api-Key` header or
 * `api_key` query); an unknown key gets OpenAI's 401 error body. Every request is recorded.
 */
export class MockBalanceUpstream {
  readonly accounts = new Map<string, MockBalanceAccount>();
  readonly requests: RecordedBalanceRequest[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<MockBalanceUpstream> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const mock = new MockBalanceUpstream(server, `http://127.0.0.1:${port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => mock.handle(request, response));
    server.on('connection', (socket) => {
      mock.sockets.add(socket);
      socket.on('close', () => mock.sockets.delete(socket));
    });
    return mock;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.url);
    this.requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
    });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    const key = url.pathname === '/api/report/getUserOverview' ? String(request.headers['api-key'] ?? '') : bearer;
    const account = this.accounts.get(key);
    if (request.method !== 'GET')
      return send(405, { error: { message: 'method not allowed', type: 'invalid_request_error' } });
    if (!account) {
      return send(401, {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    }
    const answer = this.answer(url, account);
    if (!answer)
      return send(404, { error: { message: `Invalid URL (GET ${url.pathname})`, type: 'invalid_request_error' } });
    send(200, answer);
  }

  private answer(url: URL, account: MockBalanceAccount): unknown {
    switch (url.pathname) {
      case '/v1/dashboard/billing/subscription':
        return (
          account.openai && {
            object: 'billing_subscription',
            has_payment_method: account.openai.hasPaymentMethod,
            soft_limit_usd: account.openai.hardLimitUsd,
            hard_limit_usd: account.openai.hardLimitUsd,
            system_hard_limit_usd: account.openai.hardLimitUsd,
            access_until: 0,
          }
        );
      case '/v1/dashboard/billing/usage':
        if (!account.openai || !url.searchParams.get('start_date') || !url.searchParams.get('end_date'))
          return undefined;
        return { object: 'list', daily_costs: [], total_usage: account.openai.totalUsageCents };
      case '/dashboard/billing/credit_grants':
        return (
          account.creditGrants && {
            object: 'credit_summary',
            total_granted: 100,
            total_used: 1,
            [account.creditGrants.field]: account.creditGrants.amount,
          }
        );
      case '/sb-api/user/status': {
        const status = account.openAISB;
        if (!status || url.searchParams.get('api_key') === null) return undefined;
        return 'credit' in status
          ? { code: 0, msg: 'ok', data: { credit: status.credit } }
          : { code: 1, msg: status.refusal, data: null };
      }
      case '/api/report/getUserOverview': {
        const overview = account.aiProxy;
        if (!overview) return undefined;
        return 'totalPoints' in overview
          ? { success: true, message: '', error_code: 0, data: { totalPoints: overview.totalPoints } }
          : { success: false, message: overview.message, error_code: overview.errorCode, data: null };
      }
      case '/v1/credits':
        return (
          account.openRouter && {
            data: { total_credits: account.openRouter.totalCredits, total_usage: account.openRouter.totalUsage },
          }
        );
      case '/user/balance':
        return (
          account.deepSeek && {
            is_available: true,
            balance_infos: account.deepSeek.map((entry) => ({
              currency: entry.currency,
              total_balance: entry.totalBalance,
              granted_balance: '0.00',
              topped_up_balance: entry.totalBalance,
            })),
          }
        );
      case '/v1/user/info':
        return (
          account.siliconFlow && {
            code: account.siliconFlow.code,
            message: account.siliconFlow.message,
            status: account.siliconFlow.code === 20000,
            data: {
              id: 'user-1',
              name: 'mock',
              balance: '0.88',
              chargeBalance: '0.00',
              totalBalance: account.siliconFlow.totalBalance,
            },
          }
        );
      default:
        return undefined;
    }
  }
}
