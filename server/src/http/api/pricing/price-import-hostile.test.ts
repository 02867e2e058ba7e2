import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { startedForSuite } from '../../../../test/suite-lifecycle.js';
import { startTestServer } from '../../../../test/test-server.js';

/** A string of the file that no answer may hold (the file's bytes are never echoed). */
const marker = 'FILEBYTES-7c1e9a0b52d4f863-DO-NOT-ECHO';

/** A models.dev file, one provider per hundred models, each model priced. */
function modelsDev(models: number) {
  const data: Record<string, { models: Record<string, unknown> }> = {};
  for (let index = 0; index < models; index++) {
    const provider = `provider-${Math.floor(index / 100)}`;
    data[provider] ??= { models: {} };
    data[provider].models[`import-model-${index}`] = {
      id: `import-model-${index}`,
      name: `Model ${index}`,
      cost: { input: 1 + (index % 7), output: 2 + (index % 5), cache_read: 0.1 },
      limit: { context: 128_000, output: 4096 },
    };
  }
  return data;
}

/** Issue 32, point 5: a price import is read off the event loop, within a size limit, and never echoed. */
describe('a hostile or huge price import', () => {
  const server = startedForSuite(() => startTestServer());
  const root = startedForSuite(() => server.rootClient());

  const expectNoEcho = (text: string) => {
    expect(text).not.toContain(marker);
    expect(text).not.toContain(marker.slice(0, 16));
  };

  test('a body that is not JSON is refused with its line and column and without its bytes', async () => {
    const body = `{\n  "data": {\n    "acme": { "models": { "m": { "cost": { "input": 1, ${marker}: 2 } } } }\n  }\n}`;
    const answer = await root.post('/api/price/import/preview', body, { 'accept-language': 'en' });
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toMatch(/line 3, column \d+/);
    expect(answer.body.message).toMatch(/expected a property name/);
    expectNoEcho(answer.text);
  });

  test('a file on the server that is not JSON is refused the same way, also cut short', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'price-import-'));
    const path = join(folder, 'api.json');
    writeFileSync(path, `{"acme": {"models": {"m": {"cost": {"input": "${marker}"`);
    const answer = await root.post('/api/price/import/preview', { path }, { 'accept-language': 'en' });
    expect(answer.body.success).toBe(false);
    expect(answer.body.message).toMatch(/line 1, column \d+/);
    expect(answer.body.message).toMatch(/not the end of the file/);
    expectNoEcho(answer.text);
    const missing = await root.post('/api/price/import/preview', { path: join(folder, 'none.json') });
    expect(missing.body.success).toBe(false);
    expect(missing.text).not.toContain(folder);
  });

  test("a data field of the wrong kind, and a cost's unknown fields, are named without the file's text", async () => {
    const wrongKind = await root.post('/api/price/import/preview', { data: `${marker}`.repeat(100) });
    expect(wrongKind.body.success).toBe(false);
    expectNoEcho(wrongKind.text);

    const longName = `${marker}-${'x'.repeat(300)}`;
    const answer = await root.post('/api/price/import/preview', {
      data: { acme: { models: { 'odd-model': { cost: { input: 1, [longName]: 2 } } } } },
    });
    expect(answer.body.success).toBe(true);
    expect(answer.body.data.skipped).toEqual([
      { provider: 'acme', model: 'odd-model', reason: expect.stringMatching(/^unknown cost fields: /) },
    ]);
    expect(answer.text).not.toContain(longName.slice(0, 40));
  });

  test('an applied import is still audited: its fields and counts, not the file', async () => {
    const data = { acme: { models: { 'audited-import-model': { cost: { input: 1, output: 2 } } } } };
    const applied = await root.post('/api/price/import', { data, providers: ['acme'] });
    expect(applied.body.success).toBe(true);
    expect(applied.body.data.applied).toBe(1);
    const page = await root.get('/api/audit/?action=price.import&page_size=5');
    const [entry] = page.body.data.items as { action: string; after: Record<string, unknown> }[];
    expect(entry).toMatchObject({
      action: 'price.import',
      after: { request: { providers: ['acme'] }, result: { applied: 1, changes: { count: 1 } } },
    });
    expect(JSON.stringify(entry)).not.toContain('audited-import-model');
  });

  test('a body over the size limit is refused', async () => {
    const answer = await root.post('/api/price/import/preview', { data: { big: 'x'.repeat(33 * 1024 * 1024) } });
    expect(answer.status).toBe(413);
    expect(answer.body.success).toBe(false);
    expectNoEcho(answer.text);
  });

  test('a 100,000-model import is previewed while /api/status keeps answering', { timeout: 240_000 }, async () => {
    const importing = root.post('/api/price/import/preview', { data: modelsDev(100_000) });
    let done = false;
    void importing.then(() => (done = true));
    // Status reads one after the other for as long as the import runs: each one answered before the import
    // ended is a turn of the event loop the import left to other requests.
    let answeredDuring = 0;
    while (!done) {
      const status = await server.client().get('/api/status');
      expect(status.body.success).toBe(true);
      if (!done) answeredDuring += 1;
    }
    const answer = await importing;
    expect(answer.body.success).toBe(true);
    expect(answer.body.data.changes).toHaveLength(100_000);
    expect(answer.body.data.changes[99_999]).toMatchObject({ model: 'import-model-99999', before: null });
    expect(answer.body.data.skipped).toEqual([]);
    expect(answeredDuring).toBeGreaterThanOrEqual(20);
  });
});
