// A large installation for the "installation" target (issue 28): many channels of many models each and many
// tokens, all made through the management API as an operator would, timing each channel's creation.
import { api, benchModels } from './modelgate.js';

// Under the server's cap of 1,000 tokens a user (a new user holds one already, its default token).
const tokensPerUser = 500;

/** A new user, signed in: the headers its management calls carry (its access token). */
async function signedInUser(port: number, username: string): Promise<Record<string, string>> {
  const password = 'bench-password';
  await api(port, '/api/user/', 'POST', { username, password, display_name: username });
  const login = await fetch(`http://127.0.0.1:${port}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!login.ok) throw new Error(`signing in as ${username}: ${login.status}`);
  const cookies = login.headers.getSetCookie().map((cookie) => cookie.slice(0, cookie.indexOf(';')));
  const xsrf = cookies.find((cookie) => /^XSRF-TOKEN=/i.test(cookie))?.split('=')[1] ?? '';
  // A new access token is a write on GET: the session's cookie and its CSRF token.
  const accessToken: string = await api(port, '/api/user/token', 'GET', undefined, {
    cookie: cookies.join('; '),
    'x-xsrf-token': decodeURIComponent(xsrf),
  });
  return { authorization: accessToken };
}

export interface Installation {
  channels: number;
  abilities: number;
  tokens: number;
  /** Median time to create one channel over the last 100 creations (ms). */
  channelCreateMs: number;
}

/**
 * `channels` channels of `modelsPerChannel` models each to the mock, each serving the bench's chat models beside
 * models of its own (so a call is routed among all of them, as with a pool of keys for one model), and `tokens`
 * tokens, created 8 at a time by as many users as they need. Channels are created one after another: their times
 * are a write's, not a queue's.
 */
export async function populate(
  port: number,
  mockPort: number,
  channels: number,
  tokens: number,
  modelsPerChannel = 50,
): Promise<Installation> {
  const createMs: number[] = [];
  const shared = [benchModels.chat, benchModels.pacedChat];
  for (let index = 0; index < channels; index++) {
    const own = Array.from({ length: modelsPerChannel - shared.length }, (_, model) => `bench-${index}-${model}`);
    const begun = performance.now();
    await api(port, '/api/channel/', 'POST', {
      name: `bench installation ${index}`,
      type: 8,
      key: `sk-upstream-bench-${index}`,
      base_url: `http://127.0.0.1:${mockPort}`,
      models: [...shared, ...own].join(','),
      group: 'default',
    });
    createMs.push(performance.now() - begun);
    if ((index + 1) % 250 === 0) process.stdout.write(`\r  installation: ${index + 1} channels`);
  }
  // The tokens are spread over users of their own, `tokensPerUser` each.
  const owners = await Promise.all(
    Array.from({ length: Math.ceil(tokens / tokensPerUser) }, (_, index) => signedInUser(port, `bench${index}`)),
  );
  let created = 0;
  const createTokens = async () => {
    while (created < tokens) {
      const index = created++;
      const owner = owners[Math.floor(index / tokensPerUser)]!;
      const token = { name: `bench ${index}`, remain_quota: 1_000_000, unlimited_quota: false, expired_time: -1 };
      await api(port, '/api/token/', 'POST', token, owner);
      if ((index + 1) % 2000 === 0) process.stdout.write(`\r  installation: ${channels} channels, ${index + 1} tokens`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, createTokens));
  process.stdout.write('\n');
  const last = createMs.slice(-100).sort((a, b) => a - b);
  return {
    channels,
    abilities: channels * modelsPerChannel,
    tokens,
    channelCreateMs: last[Math.floor(last.length / 2)] ?? Number.NaN,
  };
}
