import pino from 'pino';
import { loadConfig } from '../src/config/env.js';
import { closeContext, createContext } from '../src/context.js';
import { abilityRowsOf } from '../src/domain/channel/channel-abilities.js';
import { insertReturningId } from '../src/db/insert-id.js';
import type { Db, NewChannel, NewToken } from '../src/db/tables.js';
import { generateTokenKey } from '../src/lib/random.js';

/** How big an installation is beyond its working channels: channels of 50 models each, and tokens. */
export interface InstallationSize {
  fillerChannels: number;
  fillerTokens: number;
}

/** A channel that serves calls in a test: its type, upstream, key and models; the rest defaults. */
export type WorkingChannel = Pick<NewChannel, 'type' | 'key' | 'name' | 'base_url' | 'models'>;

const channelDefaults = { status: 1, created_time: 1, group: 'default', config: '{}', other: '', model_mapping: '' };

/** Inserts rows in slices, within every engine's placeholder limit. */
async function insertInSlices<Row>(rows: Row[], insert: (slice: Row[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) await insert(rows.slice(start, start + 500));
}

/** Channels that serve nothing a test calls: each serves 50 models of one of 20 vendors (100 channels a model). */
async function addFillerChannels(db: Db, count: number): Promise<void> {
  const channels: NewChannel[] = Array.from({ length: count }, (_, index) => ({
    ...channelDefaults,
    type: 1,
    key: `sk-filler-${index}`,
    name: `filler ${index}`,
    base_url: 'http://127.0.0.1:9',
    models: Array.from({ length: 50 }, (_, model) => `vendor-${index % 20}-model-${model}`).join(','),
  }));
  await insertInSlices(channels, (slice) => db.insertInto('channels').values(slice).execute());
  const stored = await db.selectFrom('channels').select(['id', 'models', 'group', 'status', 'priority']).execute();
  const abilities = stored.filter((row) => row.models.startsWith('vendor-')).flatMap(abilityRowsOf);
  await insertInSlices(abilities, (slice) => db.insertInto('abilities').values(slice).execute());
}

/**
 * Migrates the database of `env` (as the master does at start) and fills it before any node starts: root, a
 * member with plenty of quota and a limited token, the working channels with their abilities, then the filler
 * channels and tokens. Answers the member's relay key (without `sk-`).
 */
export async function seedInstallation(
  env: Record<string, string>,
  working: WorkingChannel[],
  size: InstallationSize,
): Promise<string> {
  const config = loadConfig({ SESSION_SECRET: 'test-session-secret-0123456789abcdef', LOG_LEVEL: 'silent', ...env });
  const context = await createContext(config, pino({ level: 'silent' }));
  try {
    const db = context.database.db;
    const flag = (value: boolean) => (context.database.dialect === 'postgres' ? value : Number(value));
    const userId = await insertReturningId(db, 'users', {
      username: 'member',
      password: 'x',
      display_name: 'member',
      quota: 1e12,
      group: 'default',
      role: 1,
      access_token: null,
      aff_code: null,
    });
    const token = (key: string): NewToken => ({
      user_id: userId,
      key,
      name: 'token',
      created_time: 1,
      accessed_time: 1,
      remain_quota: 1e11,
      unlimited_quota: flag(false),
      models: null,
      subnet: '',
      expired_time: -1,
      status: 1,
    });
    const key = generateTokenKey();
    await db.insertInto('tokens').values(token(key)).execute();
    const fillerTokens = Array.from({ length: size.fillerTokens }, () => token(generateTokenKey()));
    await insertInSlices(fillerTokens, (slice) => db.insertInto('tokens').values(slice).execute());
    for (const channel of working) {
      const id = await insertReturningId(db, 'channels', { ...channelDefaults, ...channel });
      const abilities = abilityRowsOf({ id, models: channel.models!, group: 'default', status: 1, priority: 0 });
      await db.insertInto('abilities').values(abilities).execute();
    }
    await addFillerChannels(db, size.fillerChannels);
    return key;
  } finally {
    await closeContext(context);
  }
}
