/** Server resources the console reads; a write to one invalidates every query under its key. */
export type Resource = 'token' | 'channel' | 'redemption' | 'user' | 'log' | 'option' | 'status' | 'home' | 'price';

/** Query keys: `[resource, kind, parameters]`, so `all(resource)` covers every read of a resource. */
export const queryKeys = {
  all: (resource: Resource) => [resource] as const,
  lists: (resource: Resource) => [resource, 'list'] as const,
  list: (resource: Resource, view: object) => [resource, 'list', view] as const,
  record: (resource: Resource, id: number | 'self') => [resource, 'record', id] as const,
  isRecord: (key: readonly unknown[]) => key[1] === 'record',
  /** A read that is neither a list nor one record (groups, stats, series, model lists). */
  read: (resource: Resource, what: string, parameters: object = {}) => [resource, what, parameters] as const,
};
