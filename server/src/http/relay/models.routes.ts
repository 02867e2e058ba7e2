import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { builtInModelOwners, describeModel, orderModels } from '../../relay/model-catalog.js';
import type { RelayRuntime } from '../../relay/runtime.js';
import { principalOf, tokenCheck } from './relay.routes.js';

/** GET /v1/models (the key's models) and GET /v1/models/:model (server-behaviour §4.12). */
export function modelListRoutes(scope: FastifyInstance, context: AppContext, runtime: RelayRuntime): void {
  const preHandler = tokenCheck(context);
  scope.get('/v1/models', { preHandler }, async (request) => {
    const { token, user } = principalOf(request);
    const names = token.models
      ? token.models
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean)
      : runtime.router.modelsOfGroup(user.group);
    return { object: 'list', data: orderModels(names).map(describeModel) };
  });
  scope.get<{ Params: { model: string } }>('/v1/models/:model', { preHandler }, async (request, reply) => {
    const id = request.params.model;
    if (builtInModelOwners().has(id)) return describeModel(id);
    // one-api answers 200 here; OpenAI (and its SDKs) expect 404 with the same error object.
    return reply.status(404).send({
      error: {
        message: `The model '${id}' does not exist`,
        type: 'invalid_request_error',
        param: 'model',
        code: 'model_not_found',
      },
    });
  });
}
