import { builtInModelOwners, describeModel, orderModels } from '../../relay/model-catalog.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { sendJson, type EntryCall, type RelayRoute } from './relay-entry.js';
import { jsonLimitBytes } from './relay.routes.js';

/** GET /v1/models (the key's models) and GET /v1/models/:model (server-behaviour §4.12). */
export function modelListRoutes(runtime: RelayRuntime): RelayRoute[] {
  const list = async ({ principal: { token, user }, reply }: EntryCall) => {
    const names = token.models
      ? token.models
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
      : runtime.router.modelsOfGroup(user.group);
    sendJson(reply, 200, { object: 'list', data: orderModels(names).map(describeModel) });
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
