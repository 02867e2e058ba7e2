import type { preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import { readSession, updateSession } from './session.js';

/**
 * Cloudflare Turnstile, when enabled: the `turnstile` query token is checked with the verify endpoint
 * once per session (one-api's rule), on register and on sending verification or reset mail.
 */
export function turnstileCheck(context: AppContext): preHandlerAsyncHookHandler {
  return async (request, reply) => {
    if (!context.options.bool('TurnstileCheckEnabled')) return;
    if (readSession(request).turnstile) return;
    const token = (request.query as Record<string, unknown>).turnstile;
    if (typeof token !== 'string' || token === '')
      throw new AppError('turnstile_missing', { zh: 'Turnstile token 为空', en: 'Turnstile token is empty' });
    const form = new URLSearchParams({
      secret: context.options.string('TurnstileSecretKey'),
      response: token,
      remoteip: request.ip,
    });
    const failed = new AppError('turnstile_failed', {
      zh: 'Turnstile 校验失败，请刷新重试！',
      en: 'Turnstile check failed, refresh and try again',
    });
    try {
      const response = await fetch(context.config.TURNSTILE_VERIFY_URL, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(context.config.OAUTH_TIMEOUT_MS),
      });
      const result = (await response.json()) as { success?: boolean };
      if (!result.success) throw failed;
    } catch (error) {
      if (error instanceof AppError) throw error;
      context.logger.warn({ error }, 'turnstile verification unreachable');
      throw failed;
    }
    updateSession(request, reply, { turnstile: true });
  };
}
