import type { IncomingHttpHeaders } from 'node:http';

/** one-api's CORS on the relay: any origin, echoed so that credentials work. */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (!origin) return { 'access-control-allow-origin': '*' };
  return { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
}

/** What a preflight adds: common methods, any header the browser asks for. */
export function preflightHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return {
    'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
    'access-control-allow-headers': headers['access-control-request-headers'] ?? '*',
    'access-control-max-age': '43200',
  };
}
