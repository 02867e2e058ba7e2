import type { RelayPrincipal } from '../../relay/auth/token-auth.js';
import { builtInModelOwners, describeModel, orderModels } from '../../relay/model-catalog.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { sendJson, type EntryCall, type RelayRoute } from './relay-entry.js';
import { jsonLimitBytes } from './relay.routes.js';

/** The models a key may call, in the catalogue's order: its own list, else those of its user's group. */
export function modelsOfKey({ token, user }: RelayPrincipal, runtime: RelayRuntime): string[] {
  const names = token.models
    ? token.models
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : runtime.router.modelsOfGroup(user.group);
  return orderModels(names);
}

/** GET /v1/models (the key's models) and GET /v1/models/:model (server-behaviour §4.12). */
export function modelListRoutes(runtime: RelayRuntime): RelayRoute[] {
  const list = async ({ principal, reply }: EntryCall) => {
    sendJson(reply, 200, { object: 'list', data: modelsOfKey(principal, runtime).map(describeModel) });
  };
  const one = async ({ params, reply }: EntryCall) => {
    const id = params.model ?? '';
    if (builtInModelOwners().has(id)) return sendJson(reply, 200, describeModel(id));
    // one-api answers 200 here; OpenAI (and its SDKs) expect 404 with the same error object.
    sendJson(reply, 404, {
      error: {
        message: `The model '${id}' does not exist`,
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });
  };
  return [
    { method: 'GET', path: '/v1/models', endpoint: { bodyLimitBytes: jsonLimitBytes, handle: list } },
    { method: 'GET', path: '/v1/models/:model', endpoint: { bodyLimitBytes: jsonLimitBytes, handle: one } },
  ];
}
