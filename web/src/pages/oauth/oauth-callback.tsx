import { Flex, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { sendOAuthCode, type OAuthProvider } from '../../api/oauth';
import { notify } from '../../lib/notify';
import { signIn } from '../../stores/user.store';
import { decideCallbackStep } from './callback-retry';

const sleep = (milliseconds: number) => new Promise((resolve) => window.setTimeout(resolve, milliseconds));

/** Shared body of the GitHub and Lark callbacks (spec section 4). */
export function OAuthCallback({ provider }: { provider: OAuthProvider }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [prompt, setPrompt] = useState(() => t('oauth.processing'));
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = searchParams.get('code') ?? '';
    const state = searchParams.get('state') ?? '';

    const send = async (retries: number): Promise<void> => {
      let message = '';
      try {
        const envelope = await sendOAuthCode(provider, code, state);
        if (envelope.success) {
          if (envelope.message === 'bind') {
            notify.success(t('oauth.bound'));
            navigate('/setting');
          } else if (envelope.data) {
            signIn(envelope.data);
            notify.success(t('login.success'));
            navigate('/');
          }
          return;
        }
        // The account has a second factor: the sign-in page asks for the code (decision 0030).
        if ((envelope.data as { require_2fa?: boolean } | null)?.require_2fa) {
          navigate('/login?second_factor=1');
          return;
        }
        message = envelope.message;
        notify.error(message || t('common.error.requestFailed'));
      } catch {
        // the common handler has shown the HTTP failure
      }
      const step = decideCallbackStep(retries);
      if (step.kind === 'give-up') {
        setPrompt(t('oauth.failed'));
        navigate('/setting');
        return;
      }
      setPrompt(t('oauth.retrying', { retry: step.retry }));
      await sleep(step.delayMs);
      await send(step.retry);
    };
    void send(0);
  }, [navigate, provider, searchParams, t]);

  return (
    <Flex vertical align="center" justify="center" gap={16} style={{ minHeight: 240 }}>
      <Spin size="large" />
      <Typography.Text data-testid="oauth-prompt">{prompt}</Typography.Text>
    </Flex>
  );
}
