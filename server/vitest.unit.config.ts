import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:unit -w server` (part of `npm run check`): the server's fast tests, the unit tests.
 *
 * The rule: a unit test is a test file under src/ that reaches no database, no Redis and no child process,
 * i.e. that imports, itself or through the helpers of test/, none of the modules that do: the drivers
 * (better-sqlite3, pg, mysql2, ioredis) and node:child_process. So a test that starts a test server
 * (test/test-server.ts), a node process, Redis or asks for the engines is an integration test; one that talks
 * to an in-process mock upstream is a unit test. Integration tests run only in `npm test` (vitest.config.ts
 * runs every test file). Nothing is marked by hand: a test leaves this set by what it imports.
 */
const serverDirectory = fileURLToPath(new URL('.', import.meta.url));
const testHelpers = join(serverDirectory, 'test');
const driverImport = /from '(better-sqlite3|pg|mysql2(\/promise)?|ioredis|node:child_process)'/;
const relativeImport = /from '(\.{1,2}\/[^']+)\.js'/g;

const reaches = new Map<string, boolean>();

/** Whether a file imports a driver, itself or through the helpers of test/ it imports. */
function reachesOutside(file: string): boolean {
  const known = reaches.get(file);
  if (known !== undefined) return known;
  reaches.set(file, false); // a cycle adds nothing
  const text = readFileSync(file, 'utf8');
  const helpers = [...text.matchAll(relativeImport)]
    .map((match) => resolve(dirname(file), `${match[1]}.ts`))
    .filter((helper) => helper.startsWith(testHelpers));
  const result = driverImport.test(text) || helpers.some(reachesOutside);
  reaches.set(file, result);
  return result;
}

const unitTestFiles = readdirSync(join(serverDirectory, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => !reachesOutside(join(serverDirectory, 'src', file)))
  .map((file) => `src/${file}`);

// The shared settings, with the unit tests as the only files (mergeConfig would append to `include`).
export default defineConfig({ ...base, test: { ...base.test, include: unitTestFiles } });
