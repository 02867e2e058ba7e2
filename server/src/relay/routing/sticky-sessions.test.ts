import { afterEach, describe, expect, test, vi } from 'vitest';
import { OptionStore } from '../../domain/option/option.store.js';
import { relaySessionOf } from './session-key.js';
import { MemoryStickySessions } from './sticky-sessions.js';

describe('the session a request names', () => {
  const options = new OptionStore();
  const keyOf = (headers: Record<string, string>, clues = {}, tokenId = 1, model = 'm') =>
    relaySessionOf(options, tokenId, model, headers, clues)?.key;

  test('first match wins: Claude Code, Codex (header, then prompt_cache_key), previous response, ours, user', () => {
    const all = {
      'x-claude-code-session-id': 'claude',
      session_id: 'codex',
      'x-modelgate-session': 'ours',
    };
    const clues = { promptCacheKey: 'cache-key', previousResponseId: 'resp_1', user: 'someone' };
    expect(keyOf(all, clues)).toBe(keyOf({ 'x-claude-code-session-id': 'claude' }));
    expect(keyOf({ session_id: 'codex', 'x-modelgate-session': 'ours' }, clues)).toBe(keyOf({ session_id: 'codex' }));
    expect(keyOf({ 'x-modelgate-session': 'ours' }, clues)).toBe(keyOf({}, { promptCacheKey: 'cache-key' }));
    expect(keyOf({ 'x-modelgate-session': 'ours' }, { previousResponseId: 'resp_1', user: 'someone' })).toBe(
      keyOf({}, { previousResponseId: 'resp_1' }),
    );
    expect(keyOf({ 'x-modelgate-session': 'ours' }, { user: 'someone' })).toBe(
      keyOf({ 'x-modelgate-session': 'ours' }),
    );
    expect(keyOf({}, { user: 'someone' })).toBeDefined();
    // A response id is not the same conversation as a session id that happens to be spelled alike.
    expect(keyOf({}, { previousResponseId: 'x' })).not.toBe(keyOf({}, { user: 'x' }));
  });

  test('scoped to the token and the model', () => {
    const headers = { 'x-modelgate-session': 'same' };
    expect(keyOf(headers, {}, 1, 'm')).not.toBe(keyOf(headers, {}, 2, 'm'));
    expect(keyOf(headers, {}, 1, 'm')).not.toBe(keyOf(headers, {}, 1, 'other'));
    expect(keyOf(headers, {}, 1, 'm')).toBe(keyOf(headers, {}, 1, 'm'));
  });

  test('no id, an empty, overlong or non-string one, or a TTL of 0: no session', () => {
    expect(relaySessionOf(options, 1, 'm', {}, {})).toBeUndefined();
    expect(keyOf({ 'x-modelgate-session': '' }, { user: 42, promptCacheKey: 'x'.repeat(513) })).toBeUndefined();
    const off = new OptionStore();
    off.apply('StickySessionTtlSeconds', '0');
    expect(relaySessionOf(off, 1, 'm', { 'x-modelgate-session': 'a' }, {})).toBeUndefined();
  });

  test('a response to be stored is recorded under its own id, which its continuation looks up', () => {
    const first = relaySessionOf(options, 1, 'm', {}, { responseId: 'resp_a' });
    expect(first).toEqual({ ttlSeconds: 3600, responseKey: expect.any(String) });
    const next = relaySessionOf(options, 1, 'm', {}, { previousResponseId: 'resp_a', responseId: 'resp_b' });
    expect(next?.key).toBe(first?.responseKey);
  });
});

describe('the in-memory store', () => {
  afterEach(() => vi.useRealTimers());

  test('a lookup extends the session; an idle one expires', async () => {
    vi.useFakeTimers();
    const store = new MemoryStickySessions();
    store.record(['a'], 7, 10);
    vi.advanceTimersByTime(8_000);
    expect(await store.channelOf('a', 10)).toBe(7);
    vi.advanceTimersByTime(8_000);
    expect(await store.channelOf('a', 10)).toBe(7);
    vi.advanceTimersByTime(10_001);
    expect(await store.channelOf('a', 10)).toBeUndefined();
  });

  test('when full, the least recently used sessions go first', async () => {
    const store = new MemoryStickySessions(32);
    for (let index = 0; index < 32; index++) store.record([`s${index}`], index, 60);
    expect(await store.channelOf('s0', 60)).toBe(0);
    store.record(['new'], 99, 60);
    // The oldest sixteenth (two) went: s1 and s2, not s0, which was just used.
    expect(await store.channelOf('s0', 60)).toBe(0);
    expect(await store.channelOf('s1', 60)).toBeUndefined();
    expect(await store.channelOf('s2', 60)).toBeUndefined();
    expect(await store.channelOf('s3', 60)).toBe(3);
    expect(await store.channelOf('new', 60)).toBe(99);
  });
});
