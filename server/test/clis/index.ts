import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The coding-agent CLIs the CLI e2e tests drive live in their own package (this folder's package.json and
 * package-lock.json, not a workspace), so that `npm ci` for running the server does not download them (issue 32,
 * point 7). `npm test` installs them here first (scripts/test.mjs); a single test file run needs the same command.
 */
export const clisFolder = fileURLToPath(new URL('.', import.meta.url));

/** The path of a CLI's launcher in this package's node_modules/.bin, or an error naming the command to run. */
export function cliBinary(name: 'claude' | 'codex' | 'gemini'): string {
  const binary = fileURLToPath(new URL(`./node_modules/.bin/${name}`, import.meta.url));
  if (!existsSync(binary))
    throw new Error(`${binary} is missing: install the test CLIs with \`npm ci --prefix server/test/clis\``);
  return binary;
}
